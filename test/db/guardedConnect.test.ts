import type { AddressInfo } from 'node:net';
import { createServer, type Server, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase } from '../../src/db/client.ts';
import { QueryTimeoutError } from '../../src/db/guardedClient.ts';
import { DEFAULT_DATABASE_SETTINGS } from '../../src/db/limits.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * A path that dies while the pool opens a connection: the handshake goes out to Postgres, its
 * answers never come back, and nothing errors or closes. Before the handshake had the query
 * timeout, the pool.connect() that asked for the connection waited forever (the webhook delivery's
 * stop hung on it after a cut).
 */

let t: TestDatabase;
let relay: { url: string; close: () => Promise<void> };

beforeAll(async () => {
  t = await createTestDatabase();
  relay = await startAnswerlessRelay(new URL(t.url));
});
afterAll(async () => {
  await relay?.close();
  await t?.close();
});

/** Forwards what clients send to Postgres and drops every answer. */
async function startAnswerlessRelay(target: URL): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = new Socket();
    upstream.connect(Number(target.port || 5432), target.hostname);
    client.on('data', (chunk) => upstream.write(chunk));
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        client.destroy();
        upstream.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

describe('a pool connection whose handshake is never answered', () => {
  it('fails after the query timeout, naming it, and leaves the pool free', async () => {
    const database = createDatabase(relay.url, {
      max: 1,
      settings: { ...DEFAULT_DATABASE_SETTINGS, queryTimeoutMs: 300 },
    });
    try {
      const error = await database.pool.connect().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(QueryTimeoutError);
      expect((error as Error).message).toMatch(
        /^no answer from Postgres within DATABASE_QUERY_TIMEOUT_MS \(300 ms\); the connection was dropped/,
      );
      // The dropped connection's slot is free: the next caller gets its own attempt (and error)
      // rather than waiting behind it.
      expect(database.pool.totalCount).toBe(0);
      await expect(database.pool.query('SELECT 1')).rejects.toBeInstanceOf(QueryTimeoutError);
    } finally {
      await database.close();
    }
  });
});
