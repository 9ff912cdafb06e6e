import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import { claimDue, PROBE_AFTER_MS } from '../../src/webhooks/delivery/claim.ts';
import { createDeliveries } from '../../src/webhooks/delivery/deliveryStates.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { createTestDatabase, LOCAL_RECEIVERS, testEvent } from './harness.ts';

/** When a failing endpoint is cut to probes: a dead one is, a flaky one keeps its concurrency. */

let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

/** An endpoint whose failure run began at `failingSince`, owed 20 deliveries due at `now`. */
async function failingEndpoint(now: Date, failingSince: Date) {
  const endpoint = await addEndpoint(database.pool, { url: 'http://127.0.0.1:9/x' }, LOCAL_RECEIVERS);
  await database.pool.query('UPDATE sync.webhook_endpoints SET failing_since = $2 WHERE id = $1', [
    endpoint.id,
    failingSince,
  ]);
  const events = Array.from({ length: 20 }, () => testEvent());
  await writeEvents(database.pool, events, { stream: 'shipments', scope: 'ACC1', suppressed: false });
  await createDeliveries(
    database.pool,
    events.map((e) => ({ endpointId: endpoint.id, eventId: e.id })),
    { now },
  );
  return endpoint;
}

async function claimedFor(endpointId: string, now: Date): Promise<number> {
  const claimed = await claimDue(database.pool, { now, defaultConcurrency: 10, limit: 100, leaseMs: 60_000 });
  return claimed.filter((c) => c.endpointId === endpointId).length;
}

describe('claimDue and a failing endpoint', () => {
  it('keeps the concurrency of an endpoint that failed a moment ago (a flaky receiver between successes)', async () => {
    const now = new Date('2031-01-01T00:00:00Z');
    const endpoint = await failingEndpoint(now, new Date(now.getTime() - 1000));
    expect(await claimedFor(endpoint.id, now)).toBe(10);
  });

  it('probes an endpoint failing without a success for PROBE_AFTER_MS: one attempt at a time', async () => {
    const now = new Date('2031-02-01T00:00:00Z');
    const endpoint = await failingEndpoint(now, new Date(now.getTime() - PROBE_AFTER_MS));
    expect(await claimedFor(endpoint.id, now)).toBe(1);
  });
});
