import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { EVENTS_CHANNEL, writeEvents } from '../../src/events/outbox.ts';
import { relayOnce } from '../../src/webhooks/delivery/relay/relay.ts';
import { addEndpoint, getEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { DEFAULT_DISABLE_AFTER_MS } from '../../src/webhooks/endpoints/health.ts';
import { replayEvents } from '../../src/webhooks/recovery/replay.ts';
import { listAttempts } from '../../src/webhooks/views/deliveries.ts';
import {
  deliveriesOf,
  letWaitPass,
  QUICK_RETRIES,
  startDeliveryEngine,
  stopDeliveryEngines,
  until,
  waitForAttempt,
  waitSettled,
} from '../helpers/deliveryEngine.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { createTestDatabase, LOCAL_RECEIVERS, startReceiver, testEvent } from './harness.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
});
// Each test starts the worker's delivery engine when its scenario needs it, and stops it at its end.
afterEach(() => stopDeliveryEngines());
afterAll(async () => {
  await receiver?.close();
  await database?.drop();
});

/** A worker's webhook delivery on this file's database (settings as a worker reads them). */
const startEngine = (env: Record<string, string> = {}) => startDeliveryEngine(database.url, { env });

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
  // Deliveries left pending by earlier tests (a retry an hour away) are not this test's.
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

describe('delivery through the worker engine', () => {
  it('retries on the schedule and delivers with the same webhook-id after 3 failures, every delivery verified', async () => {
    const endpoint = await onlyEndpoint('/flaky');
    receiver.on('/flaky', endpoint.secret, (_r, count) => ({ status: count <= 3 ? 500 : 204 }));
    await startEngine(QUICK_RETRIES);
    const [id] = await commitEvents([testEvent()]);
    await waitForAttempt(database.pool, id as string, 'succeeded');
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
    // On the schedule: each failure set its retry one capped wait later (100 ms, +-10% jitter),
    // and no retry went out before it was due.
    const { rows } = await database.pool.query(
      `SELECT attempted_at, next_attempt_at FROM sync.webhook_deliveries WHERE event_id = $1 ORDER BY attempt`,
      [id],
    );
    const times = rows.map((row) => ({
      at: new Date(row.attempted_at).getTime(),
      next: row.next_attempt_at === null ? null : new Date(row.next_attempt_at).getTime(),
    }));
    for (const [i, t] of times.slice(0, 3).entries()) {
      expect((t.next as number) - t.at).toBeGreaterThanOrEqual(90);
      expect((t.next as number) - t.at).toBeLessThanOrEqual(110);
      expect(times[i + 1]?.at).toBeGreaterThanOrEqual(t.next as number);
    }
    expect(times[3]?.next).toBeNull();
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
    await startEngine(QUICK_RETRIES);
    const [id] = await commitEvents([testEvent()]);
    const [first] = await waitForAttempt(database.pool, id as string, 'failed');
    expect(first).toMatchObject({ status: 'failed', responseCode: 503 });
    expect(first?.responseBody).toHaveLength(2048);
    // The retry is due an hour later (over the 100 ms the schedule allows), and the endpoint is
    // paused as long: no claim takes a delivery of it before.
    const { rows } = await database.pool.query(
      `SELECT d.attempted_at, d.next_attempt_at, e.paused_until
         FROM sync.webhook_deliveries d JOIN sync.webhook_endpoints e ON e.id = d.endpoint_id
        WHERE d.event_id = $1`,
      [id],
    );
    const attemptedAt = new Date(rows[0].attempted_at).getTime();
    expect(new Date(rows[0].next_attempt_at).getTime() - attemptedAt).toBeGreaterThanOrEqual(3_600_000);
    expect(new Date(rows[0].paused_until).getTime() - attemptedAt).toBeGreaterThanOrEqual(3_600_000);
    expect(receiver.received('/busy')).toHaveLength(1);
    // The hour passes: the retry goes out, and its 302 is a failure, not a hop to /elsewhere.
    await letWaitPass(database.pool, endpoint.id);
    await until(
      'a second attempt',
      async () => (await listAttempts(database.pool, id as string)).length >= 2,
    );
    expect(receiver.received('/elsewhere')).toHaveLength(0);
    const attempts = await listAttempts(database.pool, id as string);
    expect(attempts[1]).toMatchObject({ status: 'failed', responseCode: 302 });
  });

  it('disables an endpoint that answers 410 and sends it nothing more', async () => {
    const endpoint = await onlyEndpoint('/gone');
    receiver.on('/gone', endpoint.secret, () => ({ status: 410 }));
    await startEngine();
    const [id] = await commitEvents([testEvent()]);
    const attempts = await waitForAttempt(database.pool, id as string, 'gave_up');
    expect(attempts.map((a) => a.status)).toEqual(['gave_up']);
    const stored = await getEndpoint(database.pool, endpoint.id);
    expect(stored?.enabled).toBe(false);
    expect(stored?.disabledReason).toMatch(/410/);
    const [later] = await commitEvents([testEvent()]);
    // The relay passes it by: no delivery of it at all.
    expect(await waitSettled(database.pool, [later as string])).toEqual([[]]);
    expect(receiver.received('/gone')).toHaveLength(1);
  });

  it('times out a receiver that never answers, and disables an endpoint failing for longer than allowed', async () => {
    const endpoint = await onlyEndpoint('/hang');
    receiver.on('/hang', endpoint.secret, () => ({ status: 0 }));
    await startEngine({ WEBHOOK_TIMEOUT_MS: '200' });
    const [id] = await commitEvents([testEvent()]);
    const [first] = await waitForAttempt(database.pool, id as string, 'failed');
    expect(first).toMatchObject({ status: 'failed', error: 'timed out', responseCode: null });
    // The endpoint has now been failing without a success for longer than allowed (5 days), and
    // its retry is due: the next failure disables it.
    await database.pool.query(
      `UPDATE sync.webhook_endpoints SET failing_since = now() - make_interval(secs => $2::float8 / 1000) WHERE id = $1`,
      [endpoint.id, DEFAULT_DISABLE_AFTER_MS + 3_600_000],
    );
    await letWaitPass(database.pool, endpoint.id);
    const attempts = await waitForAttempt(database.pool, id as string, 'gave_up');
    // A retry claimed before the endpoint's failure run was backdated fails as the first did.
    expect(attempts.every((a) => a.error === 'timed out')).toBe(true);
    expect(attempts.map((a) => a.status)).toEqual([...attempts.slice(0, -1).map(() => 'failed'), 'gave_up']);
    const stored = await getEndpoint(database.pool, endpoint.id);
    expect(stored?.enabled).toBe(false);
    expect(stored?.disabledReason).toMatch(/without a success/);
  });

  it('filters by event type and never relays suppressed events', async () => {
    const endpoint = await onlyEndpoint('/typed', ['invoice.paid']);
    receiver.on('/typed', endpoint.secret, () => ({ status: 200 }));
    await startEngine();
    const [suppressed] = await commitEvents([testEvent({ type: 'invoice.paid' })], true);
    const ids = await commitEvents([testEvent(), testEvent({ type: 'invoice.paid' })]);
    const [shipment, invoice] = await waitSettled(database.pool, ids);
    expect(shipment).toEqual([]);
    expect(invoice?.map((d) => [d.endpointId, d.status])).toEqual([[endpoint.id, 'succeeded']]);
    expect(receiver.received('/typed').map((r) => JSON.parse(r.body).type)).toEqual(['invoice.paid']);
    // Committed before them, and passed by: the relay never fanned the suppressed event out.
    const { rows } = await database.pool.query('SELECT dispatched_at FROM sync.events WHERE id = $1', [
      suppressed,
    ]);
    expect(rows[0].dispatched_at).toBeNull();
    expect(await deliveriesOf(database.pool, suppressed as string)).toEqual([]);
  });

  it('replays an event with the same webhook-id, by id and by time range', async () => {
    const endpoint = await onlyEndpoint('/replay');
    receiver.on('/replay', endpoint.secret, () => ({ status: 200 }));
    await startEngine();
    const [id] = await commitEvents([testEvent({ occurredAt: '2020-01-01T12:00:00.000Z' })]);
    const arrived = (n: number) =>
      until(`${n} deliveries to /replay`, () => receiver.received('/replay').length >= n);
    await arrived(1);
    expect(await replayEvents(database.pool, { eventId: id as string })).toMatchObject({
      events: 1,
      jobs: 1,
    });
    await arrived(2);
    const range = { from: new Date('2020-01-01T00:00:00Z'), to: new Date('2020-01-02T00:00:00Z') };
    expect(await replayEvents(database.pool, range, { endpointId: endpoint.id })).toMatchObject({
      events: 1,
      jobs: 1,
    });
    await arrived(3);
    await waitSettled(database.pool, [id as string]);
    const got = receiver.received('/replay');
    expect(got.map((r) => r.headers['webhook-id'])).toEqual([id, id, id]);
    expect(got.every((r) => r.verified)).toBe(true);
  });

  it('loses no event when the process dies between the data commit and delivery', async () => {
    const endpoint = await onlyEndpoint('/crash');
    receiver.on('/crash', endpoint.secret, () => ({ status: 200 }));
    const ids = await commitEvents([testEvent(), testEvent()]);
    // The first relay claims the rows, and its process dies before it commits.
    const doomed = await database.pool.connect();
    await doomed.query('BEGIN');
    const claimed = await doomed.query(
      'SELECT id FROM sync.events WHERE dispatched_at IS NULL AND NOT suppressed FOR UPDATE SKIP LOCKED',
    );
    expect(claimed.rowCount).toBe(2);
    // Meanwhile a second relay skips the locked rows rather than waiting or double-sending.
    expect(await relayOnce({ pool: database.pool })).toEqual({ events: 0, jobs: 0 });
    doomed.release(new Error('simulated crash'));
    // The restarted worker relays and delivers both.
    await startEngine();
    await waitSettled(database.pool, ids);
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
      // The first worker's relay fans the event out and fails at its commit.
      await expect(relayOnce({ pool: database.pool })).rejects.toThrow(/simulated commit failure/);
      expect(await deliveriesOf(database.pool, id as string)).toEqual([]);
      // A worker's engine relays it again, commits, and sends it.
      const engine = await startEngine();
      await waitSettled(database.pool, [id as string]);
      await engine.stop();
    } finally {
      await database.pool.query(`DROP TRIGGER test_fail_first_commit ON sync.events;
        DROP FUNCTION test_fail_first_commit(); DROP SEQUENCE test_commit_failures;`);
    }
    expect(receiver.received('/commit').map((r) => r.headers['webhook-id'])).toEqual([id]);
    expect((await deliveriesOf(database.pool, id as string)).map((d) => d.status)).toEqual(['succeeded']);
  });

  it('never sends a delivery again once the pair succeeded, but a replay asked for does', async () => {
    const endpoint = await onlyEndpoint('/once');
    receiver.on('/once', endpoint.secret, () => ({ status: 200 }));
    await startEngine();
    const [id] = await commitEvents([testEvent()]);
    expect((await waitSettled(database.pool, [id as string]))[0]?.map((d) => d.status)).toEqual([
      'succeeded',
    ]);
    // Whatever brings the delivery back (a state restored from a backup), the claim reads that the
    // pair already succeeded and the dispatcher skips it.
    await database.pool.query(
      `UPDATE sync.webhook_delivery_states SET status = 'pending', attempts_made = 0, finished_at = NULL,
              next_attempt_at = now() - interval '1 second' WHERE event_id = $1`,
      [id],
    );
    const [again] = await waitSettled(database.pool, [id as string]);
    expect(again?.map((d) => [d.status, d.lastError])).toEqual([['skipped', 'already delivered']]);
    expect(receiver.received('/once')).toHaveLength(1);
    await replayEvents(database.pool, { eventId: id as string });
    await until('the replay to arrive', () => receiver.received('/once').length === 2);
    expect(receiver.received('/once').map((r) => r.headers['webhook-id'])).toEqual([id, id]);
  });
});
