import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import { listAttempts } from '../../src/webhooks/deliveries.ts';
import { addEndpoint } from '../../src/webhooks/endpoints.ts';
import { startWebhookDelivery } from '../../src/webhooks/runtime.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { deletePrefix, uniquePrefix } from '../worker/fixtures.ts';
import { createTestDatabase, LOCAL_RECEIVERS, startReceiver, testEvent } from './harness.ts';

/** Retries every 1.5 s, so they come within the test, and for long enough never to run out in it. */
const SCHEDULE = [0, ...Array.from({ length: 40 }, () => 1_500)];

const redisUrl = inject('redisUrl');
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const cleanups: Array<() => Promise<unknown> | unknown> = [];
/** The deliveries a test started; stopped at its end, so the next test's deliveries are its own. */
const running: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const stop of running.splice(0).reverse()) await stop();
});

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await receiver?.close();
  await database?.drop();
});

/** One worker process's webhook delivery (queue, worker, relay, sweeper) on its own connections. */
async function startDelivery(prefix: string) {
  const producer = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  const workerConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const delivery = await startWebhookDelivery({
    ...LOCAL_RECEIVERS,
    pool: database.pool,
    databaseUrl: database.url,
    producerConnection: producer,
    workerConnection,
    prefix,
    schedule: SCHEDULE,
    relayIntervalMs: 200,
    sweepIntervalMs: 200,
  });
  running.push(async () => {
    await delivery.close();
    producer.disconnect();
    workerConnection.disconnect();
  });
  return delivery;
}

describe('durable delivery', () => {
  it('pending retries survive the loss of every queue key in Redis: two workers deliver each event once', async () => {
    const prefix = uniquePrefix('durable');
    cleanups.push(() => deletePrefix(redisUrl, prefix));
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/durable') }, LOCAL_RECEIVERS);
    let recovered = false;
    const acknowledged: string[] = [];
    receiver.on('/durable', endpoint.secret, (request) => {
      if (!recovered) return { status: 503 };
      acknowledged.push(request.headers['webhook-id'] ?? '');
      return { status: 200 };
    });
    const first = await startDelivery(prefix);
    await startDelivery(prefix);

    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(testEvent().id);
    const client = await database.pool.connect();
    try {
      await client.query('BEGIN');
      await writeEvents(
        client,
        ids.map((id) => testEvent({ id })),
        { stream: 'shipments', scope: 'ACC1', suppressed: false },
      );
      await client.query('COMMIT');
    } finally {
      client.release();
    }
    await waitFor(
      'every first attempt to fail',
      async () => {
        const attempts = await Promise.all(ids.map((id) => listAttempts(database.pool, id)));
        return attempts.every((list) => list.some((a) => a.status === 'failed'));
      },
      15_000,
    );
    // The retries are waiting in Redis as delayed jobs; a Redis restart without its data loses them.
    expect(await first.queue.getDelayedCount()).toBeGreaterThan(0);
    const flushedAt = Date.now();
    await deletePrefix(redisUrl, prefix);
    recovered = true;

    await waitFor(
      'every event to be delivered',
      async () => {
        const attempts = await Promise.all(ids.map((id) => listAttempts(database.pool, id)));
        return attempts.every((list) => list.some((a) => a.status === 'succeeded'));
      },
      20_000,
    );
    expect([...acknowledged].sort()).toEqual([...ids].sort());
    const { rows } = await database.pool.query(
      `SELECT event_id, status, attempted_at FROM sync.webhook_deliveries
        WHERE event_id = ANY($1) AND status = 'succeeded'`,
      [ids],
    );
    expect(rows).toHaveLength(ids.length);
    expect(rows.every((row) => new Date(row.attempted_at).getTime() >= flushedAt)).toBe(true);
    const states = await database.pool.query(
      `SELECT count(*)::int AS n FROM sync.webhook_delivery_states WHERE event_id = ANY($1) AND status = 'succeeded'`,
      [ids],
    );
    expect(states.rows[0].n).toBe(ids.length);
  });

  it('replaces a wake-up job that Redis lost only in part (its hash left, its place in the queue gone)', async () => {
    const prefix = uniquePrefix('durable_torn');
    cleanups.push(() => deletePrefix(redisUrl, prefix));
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/torn') }, LOCAL_RECEIVERS);
    await database.pool.query('UPDATE sync.webhook_endpoints SET enabled = (id = $1)', [endpoint.id]);
    let recovered = false;
    receiver.on('/torn', endpoint.secret, () => ({ status: recovered ? 200 : 503 }));
    const delivery = await startDelivery(prefix);
    const event = testEvent();
    await writeEvents(database.pool, [event], { stream: 'shipments', scope: 'ACC1', suppressed: false });
    await waitFor(
      'the retry to wait in the delayed set',
      async () => (await delivery.queue.getDelayedCount()) === 1,
    );
    // The retry waits as a delayed job; drop its place in the delayed set but keep its hash, as a
    // partial loss of keys leaves it. Adding a job under an id whose hash exists is a no-op.
    const redis = new Redis(redisUrl);
    cleanups.push(() => redis.disconnect());
    expect(await redis.del(delivery.queue.toKey('delayed'))).toBe(1);
    recovered = true;
    await waitFor(
      'the delivery to succeed',
      async () => (await listAttempts(database.pool, event.id)).some((a) => a.status === 'succeeded'),
      15_000,
    );
    expect(
      receiver.received('/torn').filter((r) => r.headers['webhook-id'] === event.id).length,
    ).toBeGreaterThan(1);
  });
});
