import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_CHANNEL, writeEvents } from '../../src/events/outbox.ts';
import type { DeliveryJob } from '../../src/webhooks/deliver.ts';
import { listAttempts } from '../../src/webhooks/deliveries.ts';
import { addEndpoint, getEndpoint } from '../../src/webhooks/endpoints.ts';
import { createInProcessDelivery } from '../../src/webhooks/inProcessQueue.ts';
import { relayOnce } from '../../src/webhooks/relay.ts';
import { replayEvents } from '../../src/webhooks/replay.ts';
import { STANDARD_SCHEDULE_MS } from '../../src/webhooks/schedule.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { createTestDatabase, LOCAL_RECEIVERS, startReceiver, testEvent } from './harness.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await database?.drop();
});

/** A fake clock the in-process queue waits on. */
function fakeClock(start = Date.now()) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

async function commitEvents(events: ReturnType<typeof testEvent>[], suppressed = false): Promise<string[]> {
  const client = await database.pool.connect();
  try {
    await client.query('BEGIN');
    const ids = await writeEvents(client, events, { stream: 'shipments', scope: 'ACC1', suppressed });
    await client.query('COMMIT');
    return ids;
  } finally {
    client.release();
  }
}

/** Takes every endpoint out of the way so each test sees only its own. */
async function onlyEndpoint(path: string, types: string[] = []) {
  await database.pool.query('UPDATE sync.webhook_endpoints SET enabled = false');
  await database.pool.query('UPDATE sync.events SET dispatched_at = now() WHERE dispatched_at IS NULL');
  // Deliveries left pending by earlier tests would come due under this test's clock.
  await database.pool.query(
    `UPDATE sync.webhook_delivery_states SET status = 'skipped', next_attempt_at = NULL WHERE status = 'pending'`,
  );
  return addEndpoint(database.pool, { url: receiver.url(path), eventTypes: types }, LOCAL_RECEIVERS);
}

describe('outbox', () => {
  it('stores events written twice (same ids) once and announces only committed inserts', async () => {
    const listener = new pg.Client({ connectionString: database.url });
    await listener.connect();
    const heard: string[] = [];
    listener.on('notification', (n) => heard.push(String(n.payload)));
    await listener.query(`LISTEN ${EVENTS_CHANNEL}`);
    const events = [testEvent(), testEvent()];
    expect(await commitEvents(events)).toHaveLength(2);
    expect(await commitEvents([...events, ...events])).toEqual([]);
    const { rows } = await database.pool.query(
      'SELECT count(*)::int AS n FROM sync.events WHERE id = ANY($1)',
      [events.map((e) => e.id)],
    );
    expect(rows[0].n).toBe(2);
    const rolledBack = testEvent();
    const client = await database.pool.connect();
    await client.query('BEGIN');
    await writeEvents(client, [rolledBack], { stream: null, scope: null, suppressed: false });
    await client.query('ROLLBACK');
    client.release();
    await waitFor('two notifications', () => heard.length >= 2);
    expect(heard.sort()).toEqual(events.map((e) => e.id).sort());
    await listener.end();
  });
});

describe('in-process delivery with a fake clock', () => {
  it('retries on the schedule and delivers with the same webhook-id after 3 failures, every delivery verified', async () => {
    const endpoint = await onlyEndpoint('/flaky');
    receiver.on('/flaky', endpoint.secret, (_r, count) => ({ status: count <= 3 ? 500 : 204 }));
    const [id] = await commitEvents([testEvent()]);
    const clock = fakeClock();
    const queue = createInProcessDelivery({
      ...LOCAL_RECEIVERS,
      db: database.pool,
      now: clock.now,
      random: () => 0.5,
    });
    expect(await relayOnce({ pool: database.pool, now: clock.now })).toMatchObject({ jobs: 1 });
    const kinds: string[] = [];
    for (let step = 0; step < 4; step++) {
      clock.advance(STANDARD_SCHEDULE_MS[step] ?? 0);
      kinds.push(...(await queue.runDue()).map((o) => o.kind));
    }
    expect(kinds).toEqual(['retry', 'retry', 'retry', 'delivered']);
    const got = receiver.received('/flaky');
    expect(got).toHaveLength(4);
    expect(got.every((r) => r.verified)).toBe(true);
    expect(new Set(got.map((r) => r.headers['webhook-id']))).toEqual(new Set([id]));
    expect(JSON.parse(got[3]?.body ?? '{}')).toMatchObject({ id, type: 'shipment.delivered' });
    const attempts = await listAttempts(database.pool, id as string);
    expect(attempts.map((a) => [a.attempt, a.status, a.responseCode])).toEqual([
      [1, 'failed', 500],
      [2, 'failed', 500],
      [3, 'failed', 500],
      [4, 'succeeded', 204],
    ]);
    expect((await getEndpoint(database.pool, endpoint.id))?.failingSince).toBeNull();
  });

  it('waits at least Retry-After, does not follow redirects, and truncates response bodies', async () => {
    const endpoint = await onlyEndpoint('/busy');
    receiver.on(
      '/busy',
      endpoint.secret,
      (_r, count): { status: number; headers: Record<string, string>; body?: string } =>
        count === 1
          ? { status: 503, headers: { 'retry-after': '3600' }, body: 'x'.repeat(10_000) }
          : { status: 302, headers: { location: receiver.url('/elsewhere') } },
    );
    const [id] = await commitEvents([testEvent()]);
    const clock = fakeClock();
    const queue = createInProcessDelivery({ ...LOCAL_RECEIVERS, db: database.pool, now: clock.now });
    await relayOnce({ pool: database.pool, now: clock.now });
    const [first] = await queue.runDue();
    expect(first?.kind === 'retry' && first.delayMs).toBeGreaterThanOrEqual(3_600_000);
    clock.advance(3_599_000);
    expect(await queue.runDue()).toEqual([]);
    clock.advance(1_000);
    expect((await queue.runDue())[0]?.kind).toBe('retry');
    expect(receiver.received('/elsewhere')).toHaveLength(0);
    const attempts = await listAttempts(database.pool, id as string);
    expect(attempts[0]?.responseBody).toHaveLength(2048);
    expect(attempts[1]).toMatchObject({ status: 'failed', responseCode: 302 });
  });

  it('disables an endpoint that answers 410 and sends it nothing more', async () => {
    const endpoint = await onlyEndpoint('/gone');
    receiver.on('/gone', endpoint.secret, () => ({ status: 410 }));
    await commitEvents([testEvent()]);
    const queue = createInProcessDelivery({ ...LOCAL_RECEIVERS, db: database.pool, now: () => new Date() });
    await relayOnce({ pool: database.pool });
    expect((await queue.runDue()).map((o) => o.kind)).toEqual(['gave_up']);
    const stored = await getEndpoint(database.pool, endpoint.id);
    expect(stored?.enabled).toBe(false);
    expect(stored?.disabledReason).toMatch(/410/);
    await commitEvents([testEvent()]);
    expect(await relayOnce({ pool: database.pool })).toMatchObject({ jobs: 0 });
  });

  it('times out a receiver that never answers, and disables an endpoint failing for longer than allowed', async () => {
    const endpoint = await onlyEndpoint('/hang');
    receiver.on('/hang', endpoint.secret, () => ({ status: 0 }));
    const [id] = await commitEvents([testEvent()]);
    const clock = fakeClock();
    const queue = createInProcessDelivery({
      ...LOCAL_RECEIVERS,
      db: database.pool,
      now: clock.now,
      timeoutMs: 200,
      disableAfterMs: 3_600_000,
      random: () => 0.5,
    });
    await relayOnce({ pool: database.pool, now: clock.now });
    expect((await queue.runDue()).map((o) => o.kind)).toEqual(['retry']);
    clock.advance(2 * 3_600_000);
    expect((await queue.runDue()).map((o) => o.kind)).toEqual(['gave_up']);
    const attempts = await listAttempts(database.pool, id as string);
    expect(attempts.map((a) => [a.status, a.error])).toEqual([
      ['failed', 'timed out'],
      ['gave_up', 'timed out'],
    ]);
    const stored = await getEndpoint(database.pool, endpoint.id);
    expect(stored?.enabled).toBe(false);
    expect(stored?.disabledReason).toMatch(/without a success/);
  });

  it('filters by event type and never relays suppressed events', async () => {
    const endpoint = await onlyEndpoint('/typed', ['invoice.paid']);
    receiver.on('/typed', endpoint.secret, () => ({ status: 200 }));
    await commitEvents([testEvent(), testEvent({ type: 'invoice.paid' })]);
    await commitEvents([testEvent({ type: 'invoice.paid' })], true);
    const queue = createInProcessDelivery({ ...LOCAL_RECEIVERS, db: database.pool, now: () => new Date() });
    expect(await relayOnce({ pool: database.pool })).toEqual({ events: 2, jobs: 1 });
    await queue.runDue();
    expect(receiver.received('/typed').map((r) => JSON.parse(r.body).type)).toEqual(['invoice.paid']);
  });

  it('replays an event with the same webhook-id, by id and by time range', async () => {
    const endpoint = await onlyEndpoint('/replay');
    receiver.on('/replay', endpoint.secret, () => ({ status: 200 }));
    const [id] = await commitEvents([testEvent({ occurredAt: '2020-01-01T12:00:00.000Z' })]);
    const queue = createInProcessDelivery({ ...LOCAL_RECEIVERS, db: database.pool, now: () => new Date() });
    await relayOnce({ pool: database.pool });
    await queue.runDue();
    expect(await replayEvents(database.pool, { eventId: id as string })).toMatchObject({
      events: 1,
      jobs: 1,
    });
    await queue.runDue();
    const range = { from: new Date('2020-01-01T00:00:00Z'), to: new Date('2020-01-02T00:00:00Z') };
    expect(await replayEvents(database.pool, range, { endpointId: endpoint.id })).toMatchObject({
      events: 1,
      jobs: 1,
    });
    await queue.runDue();
    const got = receiver.received('/replay');
    expect(got.map((r) => r.headers['webhook-id'])).toEqual([id, id, id]);
    expect(got.every((r) => r.verified)).toBe(true);
  });

  it('loses no event when the process dies between the data commit and delivery', async () => {
    const endpoint = await onlyEndpoint('/crash');
    receiver.on('/crash', endpoint.secret, () => ({ status: 200 }));
    const ids = await commitEvents([testEvent(), testEvent()]);
    // The first relay claims the rows, enqueues into a queue that dies with the process, and never commits.
    const doomed = await database.pool.connect();
    await doomed.query('BEGIN');
    const claimed = await doomed.query(
      'SELECT id FROM sync.events WHERE dispatched_at IS NULL AND NOT suppressed FOR UPDATE SKIP LOCKED',
    );
    expect(claimed.rowCount).toBe(2);
    // Meanwhile a second relay skips the locked rows rather than waiting or double-sending.
    expect(await relayOnce({ pool: database.pool })).toEqual({ events: 0, jobs: 0 });
    doomed.release(new Error('simulated crash'));
    const restarted = createInProcessDelivery({
      ...LOCAL_RECEIVERS,
      db: database.pool,
      now: () => new Date(),
    });
    await waitFor(
      'the restarted relay to enqueue both events',
      async () => (await relayOnce({ pool: database.pool })).jobs === 2,
    );
    await restarted.runDue();
    expect(
      receiver
        .received('/crash')
        .map((r) => r.headers['webhook-id'])
        .sort(),
    ).toEqual([...ids].sort());
  });

  it('a relay whose commit fails after fanning out sends nothing, and the relay that commits sends once', async () => {
    const endpoint = await onlyEndpoint('/commit');
    receiver.on('/commit', endpoint.secret, () => ({ status: 200 }));
    const [id] = await commitEvents([testEvent()]);
    // A real commit failure: a deferred constraint trigger raises at the first relay's COMMIT only.
    await database.pool.query(`
      CREATE SEQUENCE test_commit_failures;
      CREATE FUNCTION test_fail_first_commit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF nextval('test_commit_failures') = 1 THEN RAISE EXCEPTION 'simulated commit failure'; END IF;
        RETURN NULL; END $$;
      CREATE CONSTRAINT TRIGGER test_fail_first_commit AFTER UPDATE ON sync.events
        DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_fail_first_commit();`);
    try {
      // Each relay hands its jobs to a sender that starts delivering at once (a fast worker); the
      // second relay runs in a "restarted process", with a fresh sender.
      const sending: Promise<unknown>[] = [];
      const fastSender = () => {
        const sender = createInProcessDelivery({
          ...LOCAL_RECEIVERS,
          db: database.pool,
          now: () => new Date(),
        });
        return async (jobs: readonly DeliveryJob[]) => {
          await sender.enqueue(jobs);
          sending.push(sender.runDue());
        };
      };
      await expect(relayOnce({ pool: database.pool, enqueue: fastSender() })).rejects.toThrow(
        /simulated commit failure/,
      );
      await relayOnce({ pool: database.pool, enqueue: fastSender() });
      await Promise.all(sending);
    } finally {
      await database.pool.query(`DROP TRIGGER test_fail_first_commit ON sync.events;
        DROP FUNCTION test_fail_first_commit(); DROP SEQUENCE test_commit_failures;`);
    }
    expect(receiver.received('/commit').map((r) => r.headers['webhook-id'])).toEqual([id]);
  });

  it('never sends a delivery again once the pair succeeded, but a replay asked for does', async () => {
    const endpoint = await onlyEndpoint('/once');
    receiver.on('/once', endpoint.secret, () => ({ status: 200 }));
    const [id] = await commitEvents([testEvent()]);
    const queue = createInProcessDelivery({ ...LOCAL_RECEIVERS, db: database.pool, now: () => new Date() });
    await relayOnce({ pool: database.pool });
    expect((await queue.runDue()).map((o) => o.kind)).toEqual(['delivered']);
    // Whatever brings the delivery back (a state restored from a backup, a duplicate wake-up),
    // the attempt checks the pair first.
    await database.pool.query(
      `UPDATE sync.webhook_delivery_states SET status = 'pending', attempts_made = 0,
              next_attempt_at = now() - interval '1 second' WHERE event_id = $1`,
      [id],
    );
    expect(await queue.runDue()).toEqual([{ kind: 'skipped', reason: 'already delivered' }]);
    expect(receiver.received('/once')).toHaveLength(1);
    await replayEvents(database.pool, { eventId: id as string });
    expect((await queue.runDue()).map((o) => o.kind)).toEqual(['delivered']);
    expect(receiver.received('/once')).toHaveLength(2);
  });
});
