import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import { startWebhookDelivery } from '../../src/webhooks/delivery/runtime.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { listAttempts } from '../../src/webhooks/views/deliveries.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { createTestDatabase, LOCAL_RECEIVERS, startReceiver, testEvent } from './harness.ts';

/** Retries every 1.5 s, so they come within the test, and for long enough never to run out in it. */
const SCHEDULE = [0, ...Array.from({ length: 40 }, () => 1_500)];

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

/** One worker process's webhook delivery (relay, dispatcher, sweeper). */
async function startDelivery() {
  const delivery = await startWebhookDelivery({
    ...LOCAL_RECEIVERS,
    pool: database.pool,
    databaseUrl: database.url,
    schedule: SCHEDULE,
    relayIntervalMs: 200,
    pollIntervalMs: 200,
  });
  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await delivery.close();
  };
  running.push(stop);
  return { ...delivery, stop };
}

describe('durable delivery', () => {
  it('pending retries survive every worker stopping: two new workers deliver each event once', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/durable') }, LOCAL_RECEIVERS);
    let recovered = false;
    const acknowledged: string[] = [];
    receiver.on('/durable', endpoint.secret, (request) => {
      if (!recovered) return { status: 503 };
      acknowledged.push(request.headers['webhook-id'] ?? '');
      return { status: 200 };
    });
    const first = await startDelivery();
    const second = await startDelivery();

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
    // Every worker goes away with the retries pending: only Postgres remembers them.
    await first.stop();
    await second.stop();
    const pending = await database.pool.query(
      `SELECT count(*)::int AS n FROM sync.webhook_delivery_states WHERE event_id = ANY($1) AND status = 'pending'`,
      [ids],
    );
    expect(pending.rows[0].n).toBe(ids.length);
    const flushedAt = Date.now();
    recovered = true;
    await startDelivery();
    await startDelivery();

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

  it('takes over a delivery whose sender died holding its lease, once the lease runs out', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/lease') }, LOCAL_RECEIVERS);
    await database.pool.query('UPDATE sync.webhook_endpoints SET enabled = (id = $1)', [endpoint.id]);
    receiver.on('/lease', endpoint.secret, () => ({ status: 200 }));
    const event = testEvent();
    // A sender claimed the delivery and died: its lease still holds for a moment.
    await writeEvents(database.pool, [event], {
      stream: 'shipments',
      scope: 'ACC1',
      suppressed: false,
      notify: false,
    });
    await database.pool.query(
      `INSERT INTO sync.webhook_delivery_states
         (endpoint_id, event_id, series, status, attempts_made, next_attempt_at, lease_until)
       VALUES ($1, $2, '', 'pending', 0, now(), now() + interval '1.5 seconds')`,
      [endpoint.id, event.id],
    );
    await database.pool.query('UPDATE sync.events SET dispatched_at = now() WHERE id = $1', [event.id]);
    const leasedUntil = Date.now() + 1_500;
    await startDelivery();
    await waitFor(
      'the delivery to succeed',
      async () => (await listAttempts(database.pool, event.id)).some((a) => a.status === 'succeeded'),
      15_000,
    );
    const got = receiver.received('/lease');
    expect(got.map((r) => r.headers['webhook-id'])).toEqual([event.id]);
    const { rows } = await database.pool.query(
      'SELECT attempted_at FROM sync.webhook_deliveries WHERE event_id = $1',
      [event.id],
    );
    expect(new Date(rows[0].attempted_at).getTime()).toBeGreaterThanOrEqual(leasedUntil - 50);
  });
});
