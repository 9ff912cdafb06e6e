import type { AddressInfo } from 'node:net';
import { createServer, type Server, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/client.ts';
import { GuardedClient, QueryTimeoutError } from '../../src/db/guardedClient.ts';
import { DEFAULT_DATABASE_SETTINGS, standardLimits } from '../../src/db/limits.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * A network path to Postgres that dies: nothing passes either way any more, and nothing errors or
 * closes (not even the FIN of a goodbye is answered). Before the handshake had the query timeout,
 * a connection opened on such a path kept the pool.connect() that asked for it waiting forever
 * (the webhook delivery's stop hung on it after a cut); closing a connection waited for the
 * peer's close, which never comes.
 */

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

/** A TCP relay in front of Postgres; after `cut()` it passes nothing, on open and new connections alike. */
async function startDeadPathRelay(
  target: URL,
): Promise<{ url: string; cut: () => void; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  let dead = false;
  // allowHalfOpen: a client's FIN is not answered with one, as on a dead path.
  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    const upstream = new Socket();
    upstream.connect(Number(target.port || 5432), target.hostname);
    client.on('data', (chunk) => dead || upstream.write(chunk));
    upstream.on('data', (chunk) => dead || client.write(chunk));
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    cut: () => {
      dead = true;
    },
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const settings = { ...DEFAULT_DATABASE_SETTINGS, queryTimeoutMs: 300 };
const explained =
  /^no answer from Postgres within DATABASE_QUERY_TIMEOUT_MS \(300 ms\); the connection was dropped/;

describe('GuardedClient on a dead path', () => {
  it('a handshake never answered fails after the query timeout, naming it, and leaves the pool free', async () => {
    const relay = await startDeadPathRelay(new URL(t.url));
    relay.cut();
    const database = createDatabase(relay.url, { max: 1, settings });
    try {
      const error = await database.pool.connect().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueryTimeoutError);
      expect((error as Error).message).toMatch(explained);
      // The dropped connection's slot is free: the next caller gets its own attempt (and error)
      // rather than waiting behind it.
      expect(database.pool.totalCount).toBe(0);
      await expect(database.pool.query('SELECT 1')).rejects.toBeInstanceOf(QueryTimeoutError);
    } finally {
      await database.close();
      await relay.close();
    }
  });

  it('ending a session whose goodbye is never answered drops the connection after the query timeout', async () => {
    const relay = await startDeadPathRelay(new URL(t.url));
    const client = new GuardedClient({ connectionString: relay.url, limits: standardLimits(settings) });
    try {
      await client.connect();
      await client.query('SELECT 1');
      relay.cut();
      await client.end();
      const error = await client.query('SELECT 1').catch((e: unknown) => e);
      expect((error as Error).message).toMatch(/not queryable/);
    } finally {
      await relay.close();
    }
  });
});
