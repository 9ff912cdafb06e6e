import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import { claimDue } from '../../src/webhooks/delivery/claim.ts';
import { createDeliveries } from '../../src/webhooks/delivery/deliveryStates.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { createTestDatabase, LOCAL_RECEIVERS, testEvent } from './harness.ts';

let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

/** An endpoint (at most `concurrency` in flight) owed `count` deliveries, due at `dueAt`. */
async function owed(count: number, concurrency: number, dueAt: Date) {
  const endpoint = await addEndpoint(database.pool, { url: 'http://127.0.0.1:9/x' }, LOCAL_RECEIVERS);
  await database.pool.query('UPDATE sync.webhook_endpoints SET max_concurrency = $2 WHERE id = $1', [
    endpoint.id,
    concurrency,
  ]);
  const events = Array.from({ length: count }, () => testEvent());
  await writeEvents(database.pool, events, { stream: 'shipments', scope: 'ACC1', suppressed: false });
  await createDeliveries(
    database.pool,
    events.map((e) => ({ endpointId: endpoint.id, eventId: e.id })),
    { now: dueAt },
  );
  return endpoint;
}

const claim = (now: Date, more: Partial<Parameters<typeof claimDue>[1]> = {}) =>
  claimDue(database.pool, { now, defaultConcurrency: 10, limit: 100, leaseMs: 60_000, ...more });

describe('claimDue', () => {
  it('does not count a settled delivery (answered, outcome being stored) against its endpoint’s concurrency', async () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const endpoint = await owed(3, 1, now);
    const [first] = await claim(now);
    expect(first?.endpointId).toBe(endpoint.id);
    // The one slot is taken while its lease stands...
    expect(await claim(now)).toEqual([]);
    // ...unless the claimer says that delivery's attempt is over: then the slot is free again.
    const [second] = await claim(now, { settled: [first as NonNullable<typeof first>] });
    expect(second?.eventId).not.toBe(first?.eventId);
    // Naming the first again frees nothing more: the second is in flight.
    expect(await claim(now, { settled: [first as NonNullable<typeof first>] })).toEqual([]);
  });

  it('looks from each endpoint’s floor when given one, and from the start without', async () => {
    const dueAt = new Date('2030-02-01T00:00:00Z');
    const endpoint = await owed(1, 10, dueAt);
    const later = new Date(dueAt.getTime() + 1000);
    const floors = new Map([[endpoint.id, new Date(dueAt.getTime() + 1)]]);
    expect((await claim(later, { floors })).filter((c) => c.endpointId === endpoint.id)).toEqual([]);
    const found = (await claim(later)).filter((c) => c.endpointId === endpoint.id);
    expect(found.map((c) => c.dueAt)).toEqual([dueAt]);
  });
});
