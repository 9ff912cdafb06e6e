import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import { type ClaimedDelivery, claimDue, PROBE_AFTER_MS } from '../../src/webhooks/delivery/claim.ts';
import { createDeliveries } from '../../src/webhooks/delivery/deliveryStates.ts';
import type { OutcomeRecord } from '../../src/webhooks/delivery/outcomes/outcomeRecord.ts';
import { writeOutcomes } from '../../src/webhooks/delivery/outcomes/outcomes.ts';
import { addEndpoint, getEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { judgeAttempt } from '../../src/webhooks/endpoints/health.ts';
import { createTestDatabase, LOCAL_RECEIVERS, testEvent } from './harness.ts';

/**
 * An endpoint's health follows its latest outcome by attempt time, whatever the claim that took
 * the deliveries saw and whatever order the outcomes are committed in: a success after a failure
 * leaves it healthy, so it keeps its concurrency rather than being probed one attempt at a time.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

/** A fresh endpoint owed `count` deliveries due at `now`, all claimed at once (one snapshot). */
async function claimedTogether(now: Date, count: number): Promise<ClaimedDelivery[]> {
  const endpoint = await addEndpoint(database.pool, { url: 'http://127.0.0.1:9/h' }, LOCAL_RECEIVERS);
  const events = Array.from({ length: count }, () => testEvent());
  await writeEvents(database.pool, events, { stream: 'shipments', scope: 'ACC1', suppressed: false });
  await createDeliveries(
    database.pool,
    events.map((e) => ({ endpointId: endpoint.id, eventId: e.id })),
    { now },
  );
  const claimed = await claimDue(database.pool, { now, defaultConcurrency: 10, limit: 100, leaseMs: 60_000 });
  return claimed.filter((c) => c.endpointId === endpoint.id);
}

/** The outcome sendLeased records for an answer at `at`: its verdict judged from the claim's view. */
function outcome(claimed: ClaimedDelivery, ok: boolean, at: Date): OutcomeRecord {
  const endpoint = claimed.endpoint as NonNullable<ClaimedDelivery['endpoint']>;
  const result = {
    ok,
    statusCode: ok ? 200 : 500,
    durationMs: 5,
    error: ok ? null : 'receiver answered HTTP 500',
    responseBody: '',
    retryAfterMs: undefined,
  };
  return {
    job: { endpointId: claimed.endpointId, eventId: claimed.eventId, series: claimed.series },
    endpoint,
    attempt: claimed.attempt,
    status: ok ? 'succeeded' : 'failed',
    result,
    nextAttemptAt: ok ? null : new Date(at.getTime() + 3_600_000),
    verdict: judgeAttempt(endpoint, result, at),
    attemptedAt: at,
  };
}

async function failingSince(endpointId: string): Promise<Date | null> {
  return (await getEndpoint(database.pool, endpointId))?.failingSince ?? null;
}

const later = (at: Date, ms: number) => new Date(at.getTime() + ms);

describe('endpoint health after outcomes claimed from one snapshot', () => {
  it('a failure, then a success: healthy, and not probed afterwards', async () => {
    const now = new Date('2033-01-01T00:00:00Z');
    const [a, b] = await claimedTogether(now, 2);
    if (!a || !b) throw new Error('two deliveries claimed');
    await writeOutcomes(database.pool, [outcome(a, false, later(now, 100))]);
    expect(await failingSince(a.endpointId)).toEqual(later(now, 100));
    await writeOutcomes(database.pool, [outcome(b, true, later(now, 200))]);
    expect(await failingSince(a.endpointId)).toBeNull();
    // Its next deliveries, PROBE_AFTER_MS on: its full concurrency, not one probe.
    const events = Array.from({ length: 12 }, () => testEvent());
    await writeEvents(database.pool, events, { stream: 'shipments', scope: 'ACC1', suppressed: false });
    const at = later(now, PROBE_AFTER_MS + 1000);
    await createDeliveries(
      database.pool,
      events.map((e) => ({ endpointId: a.endpointId, eventId: e.id })),
      { now: at },
    );
    const claimed = await claimDue(database.pool, {
      now: at,
      defaultConcurrency: 10,
      limit: 100,
      leaseMs: 60_000,
    });
    expect(claimed.filter((c) => c.endpointId === a.endpointId)).toHaveLength(10);
  });

  it('in one group, the later outcome decides whatever order the group lists them in', async () => {
    const now = new Date('2033-02-01T00:00:00Z');
    const [a, b] = await claimedTogether(now, 2);
    if (!a || !b) throw new Error('two deliveries claimed');
    await writeOutcomes(database.pool, [
      outcome(b, true, later(now, 200)),
      outcome(a, false, later(now, 100)),
    ]);
    expect(await failingSince(a.endpointId)).toBeNull();
  });

  it('a failure committed after a later success does not mark the endpoint failing', async () => {
    const now = new Date('2033-03-01T00:00:00Z');
    const [a, b] = await claimedTogether(now, 2);
    if (!a || !b) throw new Error('two deliveries claimed');
    await writeOutcomes(database.pool, [outcome(b, true, later(now, 200))]);
    await writeOutcomes(database.pool, [outcome(a, false, later(now, 100))]);
    expect(await failingSince(a.endpointId)).toBeNull();
  });

  it('a failure after a success starts the failure run at that failure', async () => {
    const now = new Date('2033-04-01T00:00:00Z');
    const [a, b, c] = await claimedTogether(now, 3);
    if (!a || !b || !c) throw new Error('three deliveries claimed');
    await writeOutcomes(database.pool, [outcome(a, false, later(now, 100))]);
    await writeOutcomes(database.pool, [
      outcome(b, true, later(now, 200)),
      outcome(c, false, later(now, 300)),
    ]);
    expect(await failingSince(a.endpointId)).toEqual(later(now, 300));
  });
});
