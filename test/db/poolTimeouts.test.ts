import type { AddressInfo } from 'node:net';
import { createServer, type Server, Socket } from 'node:net';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { useLimits } from '../../src/db/guardedClient.ts';
import { writeEvents } from '../../src/events/outbox.ts';
import { startWebhookDelivery } from '../../src/webhooks/delivery/runtime.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { openWorkerPools } from '../../src/worker/pools.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { LOCAL_RECEIVERS, startReceiver, testEvent } from '../webhooks/harness.ts';

/**
 * Every pool of the worker has a statement timeout (Postgres cancels a statement that runs or
 * waits too long), a client-side query timeout (a query whose answer never comes, as on a dead
 * network path, fails and its connection is dropped) and TCP keepalive. Either way the error says
 * what happened and which setting decides, and the dispatcher carries on delivering.
 */

/** The lock every claim takes for a moment (src/webhooks/delivery/claim.ts): held here, the claim waits. */
const CLAIM_LOCK = 0x7768636c61;
const silent = pino({ level: 'silent' });

let t: TestDatabase;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  t = await createTestDatabase();
  receiver = await startReceiver();
});
// Closing waits for what is in flight; on the cut path each wait (a query, a handshake, a
// connection's goodbye) ends within the query timeout. The ceiling only catches a hang.
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}, 300_000);
afterAll(async () => {
  await receiver?.close();
  await t?.close();
});

/**
 * A TCP relay in front of Postgres whose `cut()` stops every answer on the connections open at that
 * moment (a dead network path: what the client sends goes nowhere, nothing comes back, not even
 * the close of a goodbye, and no error either); connections opened afterwards pass.
 */
async function startCuttableRelay(
  target: URL,
): Promise<{ url: (url: string) => string; cut: () => void; close: () => Promise<void> }> {
  const open = new Set<{ cut: boolean; client: Socket; server: Socket }>();
  // allowHalfOpen: the FIN of a client's goodbye on a cut connection is not answered either.
  const server: Server = createServer({ allowHalfOpen: true }, (client) => {
    const upstream = new Socket();
    const link = { cut: false, client, server: upstream };
    open.add(link);
    upstream.connect(Number(target.port || 5432), target.hostname);
    upstream.on('data', (chunk) => {
      if (!link.cut) client.write(chunk);
    });
    client.on('data', (chunk) => {
      if (!link.cut) upstream.write(chunk);
    });
    client.on('end', () => {
      if (!link.cut) client.end();
    });
    const end = () => {
      open.delete(link);
      client.destroy();
      upstream.destroy();
    };
    client.on('close', end);
    upstream.on('close', end);
    client.on('error', end);
    upstream.on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (url) => {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut: () => {
      for (const link of open) link.cut = true;
    },
    close: async () => {
      for (const link of open) {
        link.client.destroy();
        link.server.destroy();
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The worker's pools and its webhook delivery, with the given DATABASE_* settings. */
async function startWorkerDelivery(databaseUrl: string, env: Record<string, string>) {
  const config = loadConfig({ DATABASE_URL: databaseUrl, ...env });
  const pools = openWorkerPools(config.databaseUrl, 1, silent, config.database);
  const errors: Error[] = [];
  const delivery = await startWebhookDelivery({
    ...LOCAL_RECEIVERS,
    pool: pools.webhooks.pool,
    databaseUrl: config.databaseUrl,
    pollIntervalMs: 200,
    relayIntervalMs: 200,
    onError: (error) => errors.push(error),
  });
  cleanups.push(async () => {
    await delivery.close();
    await pools.close();
  });
  return { errors };
}

async function endpointAt(path: string) {
  const endpoint = await addEndpoint(t.pool, { url: receiver.url(path) }, LOCAL_RECEIVERS);
  receiver.on(path, endpoint.secret, () => ({ status: 200 }));
  return endpoint;
}

async function commitEvent(): Promise<string> {
  const event = testEvent();
  await writeEvents(t.pool, [event], { stream: 'shipments', scope: 'ACC1', suppressed: false });
  return event.id;
}

const deliveredTo = (path: string) => receiver.received(path).map((r) => r.headers['webhook-id']);

describe('pool timeouts', () => {
  it('a claim blocked on a lock past the statement timeout errors clearly, and delivery carries on', async () => {
    await endpointAt('/locked');
    const { errors } = await startWorkerDelivery(t.url, {
      DATABASE_STATEMENT_TIMEOUT_MS: '500',
      DATABASE_QUERY_TIMEOUT_MS: '5000',
    });
    const holder = await t.pool.connect();
    try {
      await holder.query('SELECT pg_advisory_lock($1)', [CLAIM_LOCK]);
      const id = await commitEvent();
      await waitFor('the blocked claim to fail', () => errors.length > 0, 30_000);
      expect(errors[0]?.message).toMatch(
        /^Postgres cancelled a statement that ran past DATABASE_STATEMENT_TIMEOUT_MS \(500 ms\): canceling statement due to statement timeout/,
      );
      expect(deliveredTo('/locked')).toEqual([]);
      await holder.query('SELECT pg_advisory_unlock($1)', [CLAIM_LOCK]);
      await waitFor('the delivery once the lock is free', () => deliveredTo('/locked').includes(id), 30_000);
    } finally {
      holder.release();
    }
  });

  it('a query whose answer never comes fails after the query timeout; new connections deliver', async () => {
    await t.pool.query('UPDATE sync.webhook_endpoints SET enabled = false');
    await endpointAt('/cut');
    const relay = await startCuttableRelay(new URL(t.url));
    cleanups.push(() => relay.close());
    const { errors } = await startWorkerDelivery(relay.url(t.url), {
      DATABASE_STATEMENT_TIMEOUT_MS: '500',
      DATABASE_QUERY_TIMEOUT_MS: '1000',
    });
    const first = await commitEvent();
    await waitFor('a delivery through the relay', () => deliveredTo('/cut').includes(first), 30_000);
    relay.cut();
    // The timed-out query's connection is dropped; a query queued on another cut connection may
    // fail first with pg's own "Connection terminated unexpectedly", so look for the one that
    // names the setting rather than take the first error.
    const explained =
      /^no answer from Postgres within DATABASE_QUERY_TIMEOUT_MS \(1000 ms\); the connection was dropped/;
    await waitFor(
      'a query to time out on the cut path',
      () => errors.some((error) => explained.test(error.message)),
      30_000,
    );
    const second = await commitEvent();
    // Within a lease at most: a claim whose answer was lost on the cut path took its deliveries'
    // lease (60 s at the default attempt timeout) though nobody sends them, and they go out when
    // it runs out. The ceiling only catches a hang.
    await waitFor('a delivery on new connections', () => deliveredTo('/cut').includes(second), 150_000);
  }, 300_000);

  it('long work has the long limit: the analytics and pruner pools, and a COPY switching to it', async () => {
    const config = loadConfig({
      DATABASE_URL: t.url,
      DATABASE_STATEMENT_TIMEOUT_MS: '300',
      DATABASE_LONG_STATEMENT_TIMEOUT_MS: '5000',
    });
    const pools = openWorkerPools(config.databaseUrl, 1, silent, config.database);
    cleanups.push(() => pools.close());
    const shown = async (pool: typeof pools.sync.pool) =>
      (await pool.query<{ statement_timeout: string }>('SHOW statement_timeout')).rows[0]?.statement_timeout;
    expect({
      sync: await shown(pools.sync.pool),
      webhooks: await shown(pools.webhooks.pool),
      ops: await shown(pools.ops.pool),
      analytics: await shown(pools.analytics.pool),
      maintenance: await shown(pools.maintenance.pool),
    }).toEqual({ sync: '300ms', webhooks: '300ms', ops: '300ms', analytics: '5s', maintenance: '5s' });
    // What src/sync/copy.ts does around a COPY, in the sync's transaction.
    const client = await pools.sync.pool.connect();
    try {
      await client.query('BEGIN');
      await useLimits(client, 'long');
      await client.query('SELECT pg_sleep(0.5)');
      await useLimits(client, 'standard');
      const error = await client.query('SELECT pg_sleep(0.5)').catch((e: Error) => e);
      expect(error instanceof Error ? error.message : error).toMatch(
        /^Postgres cancelled a statement that ran past DATABASE_STATEMENT_TIMEOUT_MS \(300 ms\)/,
      );
      await client.query('ROLLBACK');
    } finally {
      client.release();
    }
  });
});
