import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webhooksReplay } from '../../src/cli/actions/webhooks.ts';
import { writeEvents } from '../../src/events/outbox.ts';
import { startWebhookDelivery } from '../../src/webhooks/delivery/runtime.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { createTestDatabase, LOCAL_RECEIVERS, startReceiver, testEvent } from './harness.ts';

/** Each endpoint's own limits: Retry-After pauses, rate limit, concurrency across workers; replay's wake-up. */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const running: Array<() => Promise<void>> = [];
const errors: Error[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
});
afterEach(async () => {
  for (const stop of running.splice(0).reverse()) await stop();
  // Each test's endpoints are its own.
  await database.pool.query('UPDATE sync.webhook_endpoints SET enabled = false');
});
afterAll(async () => {
  await receiver?.close();
  await database?.drop();
});

/** A worker's webhook delivery; polling slow enough that only announcements and due times wake it. */
async function startWorker(options: { pollIntervalMs?: number } = {}) {
  const delivery = await startWebhookDelivery({
    ...LOCAL_RECEIVERS,
    pool: database.pool,
    databaseUrl: database.url,
    schedule: [0, 100, 100, 100, 100],
    relayIntervalMs: 60_000,
    pollIntervalMs: options.pollIntervalMs ?? 1000,
    onError: (error) => errors.push(error),
  });
  running.push(() => delivery.close());
  return delivery;
}

/** The Retry-After of the pause test: long enough that five deliveries elsewhere fit in it on any machine. */
const PAUSE_S = 5;

async function endpoint(path: string, limits: { rate?: number; concurrency?: number } = {}) {
  const added = await addEndpoint(database.pool, { url: receiver.url(path) }, LOCAL_RECEIVERS);
  await database.pool.query(
    'UPDATE sync.webhook_endpoints SET rate_limit_per_second = $2, max_concurrency = $3 WHERE id = $1',
    [added.id, limits.rate ?? null, limits.concurrency ?? null],
  );
  return added;
}

async function commit(count: number): Promise<string[]> {
  const events = Array.from({ length: count }, () => testEvent());
  await writeEvents(database.pool, events, { stream: 'shipments', scope: 'ACC1', suppressed: false });
  return events.map((e) => e.id);
}

describe('per-endpoint limits', () => {
  it.each([429, 503])(
    'a %i with Retry-After pauses that endpoint only, for as long as it asked',
    async (status) => {
      const slow = await endpoint(`/slow${status}`, { concurrency: 1 });
      const other = await endpoint(`/other${status}`);
      receiver.on(`/slow${status}`, slow.secret, (_r, count) =>
        count === 1 ? { status, headers: { 'retry-after': String(PAUSE_S) } } : { status: 200 },
      );
      receiver.on(`/other${status}`, other.secret, () => ({ status: 200 }));
      await startWorker();
      const ids = await commit(5);
      await waitFor('every event at both endpoints', () =>
        [`/slow${status}`, `/other${status}`].every(
          (path) => new Set(receiver.received(path).map((r) => r.headers['webhook-id'])).size === ids.length,
        ),
      );
      const slowGot = receiver.received(`/slow${status}`);
      const pausedAt = slowGot[0]?.receivedAt as number;
      // Nothing reached the paused endpoint for the time it asked for...
      expect((slowGot[1]?.receivedAt as number) - pausedAt).toBeGreaterThanOrEqual(PAUSE_S * 1000);
      // ...while the other endpoint had everything before the pause ended.
      const otherLast = Math.max(...receiver.received(`/other${status}`).map((r) => r.receivedAt));
      expect(otherLast).toBeLessThan(slowGot[1]?.receivedAt as number);
      expect(slowGot.every((r) => r.verified)).toBe(true);
    },
  );

  it('rate_limit_per_second spreads an endpoint’s attempts; its neighbour is not held to it', async () => {
    const limited = await endpoint('/limited', { rate: 5 });
    const free = await endpoint('/free');
    receiver.on('/limited', limited.secret, () => ({ status: 200 }));
    receiver.on('/free', free.secret, () => ({ status: 200 }));
    await startWorker({ pollIntervalMs: 200 });
    const ids = await commit(15);
    await waitFor('15 deliveries to the limited endpoint', () => receiver.received('/limited').length === 15);
    const at = receiver.received('/limited').map((r) => r.receivedAt);
    // 5 at once (one second of burst), then 5 a second: the last 10 take at least 2 s.
    expect(Math.max(...at) - Math.min(...at)).toBeGreaterThanOrEqual(1800);
    for (const start of at) {
      expect(at.filter((t) => t >= start && t < start + 1000).length).toBeLessThanOrEqual(10);
    }
    const freeAt = receiver.received('/free').map((r) => r.receivedAt);
    expect(freeAt).toHaveLength(ids.length);
    expect(Math.max(...freeAt)).toBeLessThan(Math.max(...at));
  });

  it('max_concurrency holds across two workers', async () => {
    const EVENTS = 12;
    let open = 0;
    let most = 0;
    let total = 0;
    const held: Array<() => void> = [];
    // Requests are held until the limit's worth is open (or the last one came), then for 150 ms
    // more, in which a request over the limit would arrive: so the limit is always reached, however
    // slow the machine, and any excess shows.
    const server: Server = createServer((req, res) => {
      open += 1;
      total += 1;
      most = Math.max(most, open);
      req.resume();
      held.push(() => {
        open -= 1;
        res.writeHead(200).end();
      });
      if (open >= 2 || total === EVENTS)
        setTimeout(() => {
          for (const answer of held.splice(0)) answer();
        }, 150);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    running.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    const { port } = server.address() as AddressInfo;
    const added = await addEndpoint(database.pool, { url: `http://127.0.0.1:${port}/c` }, LOCAL_RECEIVERS);
    await database.pool.query('UPDATE sync.webhook_endpoints SET max_concurrency = 2 WHERE id = $1', [
      added.id,
    ]);
    await startWorker({ pollIntervalMs: 100 });
    await startWorker({ pollIntervalMs: 100 });
    const ids = await commit(EVENTS);
    await waitFor('every delivery to succeed', async () => {
      const { rows } = await database.pool.query(
        `SELECT count(*)::int AS n FROM sync.webhook_delivery_states WHERE endpoint_id = $1 AND status = 'succeeded'`,
        [added.id],
      );
      return rows[0].n === ids.length;
    });
    expect(most).toBe(2);
  });

  it('replay queues its deliveries, says how many, and a running worker sends them at once', async () => {
    const target = await endpoint('/replayed');
    receiver.on('/replayed', target.secret, () => ({ status: 200 }));
    // Polling every 10 minutes, longer than the test: only the replay's announcement can bring the
    // worker to it.
    await startWorker({ pollIntervalMs: 600_000 });
    const event = testEvent();
    await writeEvents(database.pool, [event], { stream: null, scope: null, suppressed: true });
    const printed: string[] = [];
    const errorsBefore = errors.length;
    await webhooksReplay(database.pool, { eventId: event.id }, target.id, (line) => printed.push(line));
    expect(printed).toEqual(['queued 1 delivery(ies) of 1 event(s); a running worker sends them now.']);
    await waitFor('the replayed delivery', () => receiver.received('/replayed').length === 1, 60_000);
    expect(receiver.received('/replayed')[0]?.headers['webhook-id']).toBe(event.id);
    expect(errors.slice(errorsBefore)).toEqual([]);
  });
});
