import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import { startWebhookDelivery } from '../../src/webhooks/delivery/runtime.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { replayEvents } from '../../src/webhooks/recovery/replay.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { createTestDatabase, LOCAL_RECEIVERS, startReceiver, testEvent } from './harness.ts';

/**
 * Issue 18's isolation bar: with 20 endpoints that never answer and one that refuses connections,
 * a healthy endpoint beside them gets every live event while not one hanging request has been
 * answered, and a replay at no less than half the rate it gets alone (a ratio measured in the same
 * run: one queue shared with the stuck endpoints would give it about 1/22 of the claims; the bar of
 * 80% is the webhook benchmark's, measured quietly, while this runs beside anything). The hanging receivers hold their requests until the test ends, so were the healthy
 * endpoint to wait behind them, it would never get its events and the waits' ceilings would fail
 * the test; how fast a busy machine delivers is not asserted, only printed.
 */

const HANGING_ENDPOINTS = 20;
/** Longer than the test: no delivery to a hanging endpoint ends while it runs. */
const DELIVERY_TIMEOUT_MS = 600_000;
/** Events in the backlog every endpoint is owed when the live events start. */
const BACKLOG = 400;
const LIVE = 40;

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let hanging: Awaited<ReturnType<typeof startHangingServer>>;
let delivery: Awaited<ReturnType<typeof startWebhookDelivery>> | undefined;

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
  hanging = await startHangingServer();
});
afterAll(async () => {
  // The hanging requests end with their server, so stopping the delivery waits for none of them.
  await hanging?.close();
  await receiver?.close();
  await delivery?.close();
  await database?.drop();
});

/** A server that holds every request open until it closes, never answering; counts what it holds. */
async function startHangingServer() {
  let open = 0;
  let total = 0;
  const server: Server = createServer((req, res) => {
    open += 1;
    total += 1;
    req.resume();
    res.on('close', () => {
      open -= 1;
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path: string) => `http://127.0.0.1:${port}${path}`,
    open: () => open,
    total: () => total,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port nothing listens on: connections to it are refused. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Commits events in one transaction; returns their ids and when the commit returned. */
async function commit(count: number): Promise<{ ids: string[]; committedAt: number }> {
  const events = Array.from({ length: count }, () => testEvent());
  const client = await database.pool.connect();
  try {
    await client.query('BEGIN');
    await writeEvents(client, events, { stream: 'shipments', scope: 'ACC1', suppressed: false });
    await client.query('COMMIT');
    return { ids: events.map((e) => e.id), committedAt: Date.now() };
  } finally {
    client.release();
  }
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}

/** Deliveries per ms of a replay to the healthy endpoint: its requests since `startedAt`, first to last. */
async function replayRate(startedAt: number, expected: number): Promise<number> {
  await waitFor(
    `${expected} replayed deliveries to the healthy endpoint`,
    () => receiver.received('/healthy').filter((r) => r.receivedAt >= startedAt).length >= expected,
    60_000,
  );
  const arrivals = receiver
    .received('/healthy')
    .filter((r) => r.receivedAt >= startedAt)
    .map((r) => r.receivedAt);
  return (expected - 1) / (Math.max(...arrivals) - Math.min(...arrivals) + 1);
}

describe('endpoint isolation', () => {
  it('20 hanging endpoints and a dead one beside a healthy one: every live event through, replay at >= 50% of its rate alone', async () => {
    const healthy = await addEndpoint(database.pool, { url: receiver.url('/healthy') }, LOCAL_RECEIVERS);
    receiver.on('/healthy', healthy.secret, () => ({ status: 200 }));
    for (let i = 0; i < HANGING_ENDPOINTS; i++) {
      await addEndpoint(database.pool, { url: hanging.url(`/hang${i}`) }, LOCAL_RECEIVERS);
    }
    await addEndpoint(database.pool, { url: `http://127.0.0.1:${await deadPort()}/dead` }, LOCAL_RECEIVERS);
    delivery = await startWebhookDelivery({
      ...LOCAL_RECEIVERS,
      pool: database.pool,
      databaseUrl: database.url,
      timeoutMs: DELIVERY_TIMEOUT_MS,
    });

    // A backlog owed to every endpoint: the hanging ones fill every slot they have.
    const backlog = await commit(BACKLOG);
    await waitFor(
      'the healthy endpoint to get the backlog',
      () => receiver.received('/healthy').length >= BACKLOG,
    );
    await waitFor('every hanging endpoint to hold its slots', () => hanging.open() >= HANGING_ENDPOINTS * 10);

    // Live events, one commit every 50 ms, while the hanging endpoints hold their requests.
    const committed = new Map<string, number>();
    for (let i = 0; i < LIVE; i++) {
      const { ids, committedAt } = await commit(1);
      committed.set(ids[0] as string, committedAt);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await waitFor('the healthy endpoint to get every live event', () =>
      [...committed.keys()].every((id) =>
        receiver.received('/healthy').some((r) => r.headers['webhook-id'] === id),
      ),
    );
    const lags = [...committed].map(([id, at]) => {
      const got = receiver.received('/healthy').find((r) => r.headers['webhook-id'] === id);
      return (got?.receivedAt ?? Number.POSITIVE_INFINITY) - at;
    });
    // Every request to a hanging endpoint is still held, none answered: the healthy endpoint got
    // its live events beside endpoints that were stuck all along.
    expect(hanging.open()).toBeGreaterThanOrEqual(HANGING_ENDPOINTS * 10);
    expect(hanging.open()).toBe(hanging.total());

    // The same events replayed to the healthy endpoint alone, then to every endpoint.
    const range = { from: new Date('2026-03-01T00:00:00Z'), to: new Date('2026-03-02T00:00:00Z') };
    const events = BACKLOG + LIVE;
    // Rates from the first replayed delivery to the last: storing 22 times the deliveries takes
    // longer, which is the replay command's time, not the rate the endpoint gets them at.
    const aloneStart = Date.now();
    await replayEvents(database.pool, range, { endpointId: healthy.id });
    const alone = await replayRate(aloneStart, events);
    const allStart = Date.now();
    const replayed = await replayEvents(database.pool, range);
    expect(replayed.queued).toBe(events * (HANGING_ENDPOINTS + 2));
    const withAll = await replayRate(allStart, events);
    expect(hanging.open()).toBeGreaterThanOrEqual(HANGING_ENDPOINTS * 10);
    console.info(
      `isolation: live p95 ${percentile(lags, 95)} ms; replay alone ${(alone * 1000).toFixed(0)}/s, beside 21 stuck endpoints ${(withAll * 1000).toFixed(0)}/s (${((withAll / alone) * 100).toFixed(0)}%)`,
    );
    expect(withAll / alone).toBeGreaterThanOrEqual(0.5);
    expect(backlog.ids).toHaveLength(BACKLOG);
  }, 120_000);
});
