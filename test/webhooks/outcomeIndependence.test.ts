import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webhooksRemove } from '../../src/cli/actions/webhooks.ts';
import { writeEvents } from '../../src/events/outbox.ts';
import { type ClaimedDelivery, claimDue } from '../../src/webhooks/delivery/claim.ts';
import { leaseMsFor } from '../../src/webhooks/delivery/deliver.ts';
import { createDeliveries } from '../../src/webhooks/delivery/deliveryStates.ts';
import { startDispatcher } from '../../src/webhooks/delivery/dispatcher.ts';
import type { OutcomeRecord } from '../../src/webhooks/delivery/outcomes/outcomeRecord.ts';
import { writeOutcomes } from '../../src/webhooks/delivery/outcomes/outcomes.ts';
import { relayOnce } from '../../src/webhooks/delivery/relay/relay.ts';
import { addEndpoint, type Endpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { startGatedReceiver } from './gatedReceiver.ts';
import { createTestDatabase, LOCAL_RECEIVERS, testEvent } from './harness.ts';

/**
 * The outcomes of one group commit are independent: an endpoint removed while its deliveries are
 * in flight, or one row Postgres refuses, never costs another delivery its recorded outcome (which
 * would leave that delivery leased, to go out again with the same webhook-id after the lease).
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const cleanups: Array<() => Promise<void>> = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
afterAll(async () => {
  await database?.drop();
});

async function endpointAt(url: string): Promise<Endpoint> {
  return addEndpoint(database.pool, { url }, LOCAL_RECEIVERS);
}

/** One delivery per endpoint of a fresh event, leased by the production claim. */
async function leasedDeliveries(endpoints: readonly Endpoint[], now: Date): Promise<ClaimedDelivery[]> {
  const event = testEvent();
  await writeEvents(database.pool, [event], { stream: 'shipments', scope: 'ACC1', suppressed: false });
  await createDeliveries(
    database.pool,
    endpoints.map((e) => ({ endpointId: e.id, eventId: event.id })),
    { now },
  );
  const claimed = await claimDue(database.pool, { now, defaultConcurrency: 10, limit: 100, leaseMs: 60_000 });
  return claimed.filter((c) => c.eventId === event.id);
}

/** The outcome of a 2xx answer (or `status`) to a claimed delivery. */
function answered(claimed: ClaimedDelivery, at: Date, status = 200, body = 'ok'): OutcomeRecord {
  const ok = status >= 200 && status < 300;
  return {
    job: { endpointId: claimed.endpointId, eventId: claimed.eventId, series: claimed.series },
    endpoint: { id: claimed.endpointId, failingSince: null },
    attempt: claimed.attempt,
    status: ok ? 'succeeded' : 'failed',
    result: {
      ok,
      statusCode: status,
      durationMs: 5,
      error: ok ? null : `receiver answered HTTP ${status}`,
      responseBody: body,
      retryAfterMs: undefined,
    },
    nextAttemptAt: ok ? null : new Date(at.getTime() + 60_000),
    verdict: { failingSince: ok ? null : at, disableReason: null },
    attemptedAt: at,
  };
}

async function stateOf(claimed: ClaimedDelivery) {
  const { rows } = await database.pool.query(
    `SELECT status, attempts_made, lease_until,
            (SELECT count(*)::int FROM sync.webhook_deliveries d
              WHERE d.endpoint_id = s.endpoint_id AND d.event_id = s.event_id) AS attempts
       FROM sync.webhook_delivery_states s
      WHERE endpoint_id = $1 AND event_id = $2 AND series = $3`,
    [claimed.endpointId, claimed.eventId, claimed.series],
  );
  return rows[0] as { status: string; attempts_made: number; lease_until: Date | null; attempts: number };
}

describe('one group commit, independent outcomes', () => {
  it('an endpoint removed while its delivery was in flight costs the others nothing', async () => {
    const now = new Date('2032-01-01T00:00:00Z');
    const removed = await endpointAt('http://127.0.0.1:9/removed');
    const kept = await endpointAt('http://127.0.0.1:9/kept');
    const claimed = await leasedDeliveries([removed, kept], now);
    expect(claimed).toHaveLength(2);
    await database.pool.query('DELETE FROM sync.webhook_endpoints WHERE id = $1', [removed.id]);
    const at = new Date(now.getTime() + 100);
    const error = await writeOutcomes(
      database.pool,
      claimed.map((c) => answered(c, at)),
    ).catch((e: Error) => e);
    const keptDelivery = claimed.find((c) => c.endpointId === kept.id) as ClaimedDelivery;
    expect({
      error: error instanceof Error ? error.message : undefined,
      state: await stateOf(keptDelivery),
    }).toEqual({
      error: undefined,
      state: { status: 'succeeded', attempts_made: 1, lease_until: null, attempts: 1 },
    });
  });

  it('a receiver body with a NUL byte is stored without it, beside the other outcomes', async () => {
    const now = new Date('2032-02-01T00:00:00Z');
    const odd = await endpointAt('http://127.0.0.1:9/nul');
    const plain = await endpointAt('http://127.0.0.1:9/plain');
    const claimed = await leasedDeliveries([odd, plain], now);
    const at = new Date(now.getTime() + 100);
    const error = await writeOutcomes(
      database.pool,
      claimed.map((c) => answered(c, at, 200, c.endpointId === odd.id ? 'ok\u0000then' : 'ok')),
    ).catch((e: Error) => e);
    expect(error instanceof Error ? error.message : undefined).toBeUndefined();
    for (const c of claimed) expect((await stateOf(c)).status).toBe('succeeded');
    const { rows } = await database.pool.query(
      'SELECT response_body FROM sync.webhook_deliveries WHERE endpoint_id = $1',
      [odd.id],
    );
    expect(rows).toEqual([{ response_body: 'okthen' }]);
  });

  it('a row Postgres refuses fails alone: every other outcome of its group is stored', async () => {
    const now = new Date('2032-03-01T00:00:00Z');
    // Stands for any row that cannot be stored (a constraint, a value Postgres rejects).
    await database.pool.query(
      `ALTER TABLE sync.webhook_deliveries ADD CONSTRAINT test_refuses_418 CHECK (response_code IS DISTINCT FROM 418) NOT VALID`,
    );
    cleanups.push(async () => {
      await database.pool.query('ALTER TABLE sync.webhook_deliveries DROP CONSTRAINT test_refuses_418');
    });
    const refused = await endpointAt('http://127.0.0.1:9/teapot');
    const others = [await endpointAt('http://127.0.0.1:9/a'), await endpointAt('http://127.0.0.1:9/b')];
    const claimed = await leasedDeliveries([others[0] as Endpoint, refused, others[1] as Endpoint], now);
    const at = new Date(now.getTime() + 100);
    await writeOutcomes(
      database.pool,
      claimed.map((c) => answered(c, at, c.endpointId === refused.id ? 418 : 200)),
    ).catch((e: Error) => e);
    const states = await Promise.all(claimed.map(async (c) => [c.endpointId, (await stateOf(c)).status]));
    expect(Object.fromEntries(states)).toEqual({
      [others[0]?.id as string]: 'succeeded',
      [others[1]?.id as string]: 'succeeded',
      // Its outcome could not be stored: it stays leased, and is sent again after the lease.
      [refused.id]: 'pending',
    });
  });
});

describe('webhooks remove while deliveries are in flight (production dispatcher)', () => {
  it('every other endpoint gets each webhook-id once, also after the lease has passed', async () => {
    // The earlier tests' endpoints and events are theirs: out of this one's way.
    await database.pool.query('UPDATE sync.webhook_endpoints SET enabled = false');
    await database.pool.query('UPDATE sync.events SET dispatched_at = now() WHERE dispatched_at IS NULL');
    const receiver = await startGatedReceiver();
    cleanups.push(() => receiver.close());
    const slow = await endpointAt(receiver.url('/slow'));
    const fast = [await endpointAt(receiver.url('/fast1')), await endpointAt(receiver.url('/fast2'))];
    // The clock of claims and leases: moved past the lease at the end.
    let offsetMs = 0;
    const now = () => new Date(Date.now() + offsetMs);
    const errors: Error[] = [];
    const deps = { db: database.pool, ...LOCAL_RECEIVERS, now, schedule: [0, 60_000] };
    const dispatcher = await startDispatcher({ deps, pollIntervalMs: 100, onError: (e) => errors.push(e) });
    cleanups.push(() => dispatcher.stop());
    for (const path of ['/slow', '/fast1', '/fast2']) receiver.hold(path);
    const events = Array.from({ length: 60 }, () => testEvent());
    await writeEvents(database.pool, events, { stream: 'shipments', scope: 'ACC1', suppressed: false });
    await relayOnce({ pool: database.pool, enqueue: async () => dispatcher.wake() });
    // Each endpoint has its 10 deliveries (its concurrency) in flight, held by its receiver.
    await waitFor('10 requests held at each receiver', () =>
      ['/slow', '/fast1', '/fast2'].every((path) => receiver.waiting(path) === 10),
    );
    const printed: string[] = [];
    await webhooksRemove(database.pool, slow.id, (line) => printed.push(line));
    expect(printed).toEqual([`removed ${slow.id}`]);
    // Every answer arrives at once: the outcomes are committed in groups that mix the endpoints.
    for (const path of ['/slow', '/fast1', '/fast2']) receiver.release(path);
    // Nothing more can start before the lease passes: every delivery answered, or waiting behind
    // leases that fill its endpoint's concurrency (those of outcomes that were not stored).
    const nothingClaimable = async () => {
      const { rows } = await database.pool.query(
        `SELECT count(*)::int AS n FROM sync.webhook_delivery_states s
          WHERE s.endpoint_id = ANY($2) AND s.status = 'pending' AND s.next_attempt_at <= $1
            AND (s.lease_until IS NULL OR s.lease_until <= $1)
            AND (SELECT count(*) FROM sync.webhook_delivery_states l
                  WHERE l.endpoint_id = s.endpoint_id AND l.status = 'pending' AND l.lease_until > $1) < 10`,
        [now(), fast.map((e) => e.id)],
      );
      return rows[0].n === 0 && dispatcher.inFlight() === 0;
    };
    await waitFor('every delivery answered or waiting behind a lease', nothingClaimable, 50_000);
    // The lease passes: a delivery whose outcome was lost would now go out a second time.
    offsetMs += leaseMsFor({}) + 1000;
    dispatcher.wake();
    await waitFor(
      'every delivery to the remaining endpoints succeeded',
      async () => {
        const { rows } = await database.pool.query(
          `SELECT count(*)::int AS n FROM sync.webhook_delivery_states
            WHERE endpoint_id = ANY($1) AND status = 'succeeded'`,
          [fast.map((e) => e.id)],
        );
        return rows[0].n === 2 * events.length && dispatcher.inFlight() === 0;
      },
      50_000,
    );
    expect({
      received: fast.map((_, i) => receiver.received(`/fast${i + 1}`).length),
      repeated: fast.map((_, i) => receiver.repeated(`/fast${i + 1}`).length),
      errors: errors.map((e) => e.message),
    }).toEqual({ received: [events.length, events.length], repeated: [0, 0], errors: [] });
  }, 120_000);
});
