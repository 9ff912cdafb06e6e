import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import { type Dispatcher, startDispatcher } from '../../src/webhooks/delivery/dispatcher.ts';
import { relayOnce } from '../../src/webhooks/delivery/relay/relay.ts';
import { startRelayLoop } from '../../src/webhooks/delivery/relay/relayLoop.ts';
import { startWebhookDelivery } from '../../src/webhooks/delivery/runtime.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { listAttempts } from '../../src/webhooks/views/deliveries.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { createTestDatabase, LOCAL_RECEIVERS, startReceiver, testEvent } from './harness.ts';

/** The Standard Webhooks shape, shortened to milliseconds so retries happen within the test. */
const SHORT_SCHEDULE = [0, 50, 100, 150, 200];

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let dispatcher: Dispatcher;
/** The relay's fast path to this process's dispatcher. */
const enqueue = async () => dispatcher.wake();

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
  dispatcher = await startDispatcher({
    deps: { ...LOCAL_RECEIVERS, db: database.pool, schedule: SHORT_SCHEDULE },
    // Polling too slow to matter: wake-ups and due-time timers must drive every attempt.
    pollIntervalMs: 60_000,
  });
});
afterAll(async () => {
  await dispatcher?.stop();
  await receiver?.close();
  await database?.drop();
});

async function commitEvents(events: ReturnType<typeof testEvent>[]): Promise<string[]> {
  const client = await database.pool.connect();
  try {
    await client.query('BEGIN');
    const ids = await writeEvents(client, events, { stream: 'shipments', scope: 'ACC1', suppressed: false });
    await client.query('COMMIT');
    return ids;
  } finally {
    client.release();
  }
}

describe('dispatcher delivery', () => {
  it('delivers after 3 failures with the same webhook-id, and never enqueues an event twice', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/bull') }, LOCAL_RECEIVERS);
    receiver.on('/bull', endpoint.secret, (_r, count) => ({ status: count <= 3 ? 503 : 200 }));
    const [id] = await commitEvents([testEvent()]);
    expect(await relayOnce({ pool: database.pool, enqueue })).toEqual({ events: 1, jobs: 1 });
    // A second wake-up (a relay pass that crashed after its commit) starts no second delivery.
    await enqueue();
    await waitFor('a succeeded attempt', async () =>
      (await listAttempts(database.pool, id as string)).some((a) => a.status === 'succeeded'),
    );
    const got = receiver.received('/bull');
    expect(got).toHaveLength(4);
    expect(got.every((r) => r.verified)).toBe(true);
    expect(new Set(got.map((r) => r.headers['webhook-id']))).toEqual(new Set([id]));
    const attempts = await listAttempts(database.pool, id as string);
    expect(attempts.map((a) => a.status)).toEqual(['failed', 'failed', 'failed', 'succeeded']);
    expect(attempts.every((a) => a.durationMs !== null && a.durationMs >= 0)).toBe(true);
  });

  it('gives up after the schedule is exhausted', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/down') }, LOCAL_RECEIVERS);
    receiver.on('/down', endpoint.secret, () => ({ status: 500 }));
    await database.pool.query('UPDATE sync.webhook_endpoints SET enabled = false WHERE id <> $1', [
      endpoint.id,
    ]);
    const [id] = await commitEvents([testEvent()]);
    await relayOnce({ pool: database.pool, enqueue });
    await waitFor('the delivery to give up', async () =>
      (await listAttempts(database.pool, id as string)).some((a) => a.status === 'gave_up'),
    );
    const attempts = await listAttempts(database.pool, id as string);
    expect(attempts).toHaveLength(SHORT_SCHEDULE.length);
  });

  it('relay loop: a committed event is delivered as soon as it is announced', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/loop') }, LOCAL_RECEIVERS);
    await database.pool.query('UPDATE sync.webhook_endpoints SET enabled = false WHERE id <> $1', [
      endpoint.id,
    ]);
    receiver.on('/loop', endpoint.secret, () => ({ status: 200 }));
    const loop = await startRelayLoop({
      pool: database.pool,
      enqueue,
      // Polling too slow to matter: the notification must wake the relay.
      intervalMs: 60_000,
      connectListener: async () => {
        const client = new pg.Client({ connectionString: database.url });
        await client.connect();
        return client;
      },
    });
    try {
      const [id] = await commitEvents([testEvent()]);
      await waitFor('one delivery to /loop', () => receiver.received('/loop').length === 1);
      expect(receiver.received('/loop')[0]?.headers['webhook-id']).toBe(id);
    } finally {
      await loop.stop();
    }
  });

  it('startWebhookDelivery wires relay and dispatcher for the worker process', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/runtime') }, LOCAL_RECEIVERS);
    await database.pool.query('UPDATE sync.webhook_endpoints SET enabled = false WHERE id <> $1', [
      endpoint.id,
    ]);
    receiver.on('/runtime', endpoint.secret, (_r, count) => ({ status: count === 1 ? 500 : 200 }));
    const delivery = await startWebhookDelivery({
      ...LOCAL_RECEIVERS,
      pool: database.pool,
      databaseUrl: database.url,
      schedule: SHORT_SCHEDULE,
      relayIntervalMs: 60_000,
      pollIntervalMs: 60_000,
    });
    try {
      const [id] = await commitEvents([testEvent()]);
      await waitFor('two deliveries to /runtime', () => receiver.received('/runtime').length === 2);
      expect(receiver.received('/runtime').map((r) => r.headers['webhook-id'])).toEqual([id, id]);
    } finally {
      await delivery.close();
    }
  });
});
