import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/events/types.ts';
import {
  type EndpointFilter,
  type EventRouting,
  endpointWants,
  endpointWantsSql,
  eventFamilies,
} from '../../src/webhooks/endpoints/endpointFilter.ts';
import { STREAM_SCOPE_KIND } from '../../src/worker/streamScopes.ts';
import { createTestDatabase } from './harness.ts';

/**
 * The rule of which events an endpoint wants exists twice: `endpointWants` (the relay, replay) and
 * `endpointWantsSql` (recover, which chooses events in Postgres). Fed the same random endpoints and
 * events, both must decide every pair alike.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

/** A small seeded generator (mulberry32): a failure is reproducible from its seed. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// One id used as an account and as a supplier: the stream must tell which it is.
const IDS = ['A1', 'A2', 'S1', 'S2', 'X'];
const TYPES = [...EVENT_TYPES, 'shipment.label_printed', 'shipmentx.created', 'webhook.test'];
const PATTERNS = [...EVENT_TYPES, ...eventFamilies(), 'shipment.label_printed'];
const STREAMS = [...Object.keys(STREAM_SCOPE_KIND), null, 'unknown_stream'];

function pick<T>(next: () => number, from: readonly T[]): T {
  return from[Math.floor(next() * from.length)] as T;
}
function some<T>(next: () => number, from: readonly T[], most: number): T[] {
  const count = Math.floor(next() * (most + 1));
  return [...new Set(Array.from({ length: count }, () => pick(next, from)))];
}

describe('endpointWants and endpointWantsSql', () => {
  it('decide alike on 40,000 random endpoint and event pairs', async () => {
    const seed = 20260327;
    const next = random(seed);
    const endpoints: EndpointFilter[] = Array.from({ length: 200 }, () => ({
      eventTypes: some(next, PATTERNS, 3),
      accountNumbers: next() < 0.5 ? [] : some(next, IDS, 2),
      supplierIds: next() < 0.5 ? [] : some(next, IDS, 2),
    }));
    const events: EventRouting[] = Array.from({ length: 200 }, () => ({
      type: pick(next, TYPES),
      stream: pick(next, STREAMS),
      scope: next() < 0.1 ? null : pick(next, IDS),
    }));
    const condition = endpointWantsSql(
      { eventTypes: 'ep.event_types', accountNumbers: 'ep.account_numbers', supplierIds: 'ep.supplier_ids' },
      'e',
    );
    const { rows } = await database.pool.query<{ endpoint: number; event: number; wants: boolean }>(
      `SELECT ep.i AS endpoint, e.i AS event, ${condition} AS wants
         FROM jsonb_to_recordset($1::jsonb) AS ep(i int, event_types text[], account_numbers text[], supplier_ids text[])
        CROSS JOIN jsonb_to_recordset($2::jsonb) AS e(i int, type text, stream text, scope text)`,
      [
        JSON.stringify(
          endpoints.map((f, i) => ({
            i,
            event_types: f.eventTypes,
            account_numbers: f.accountNumbers,
            supplier_ids: f.supplierIds,
          })),
        ),
        JSON.stringify(events.map((e, i) => ({ i, ...e }))),
      ],
    );
    expect(rows).toHaveLength(40_000);
    const disagreements = rows.filter(
      (row) =>
        row.wants !==
        endpointWants(endpoints[row.endpoint] as EndpointFilter, events[row.event] as EventRouting),
    );
    expect(
      disagreements
        .slice(0, 5)
        .map((row) => ({ endpoint: endpoints[row.endpoint], event: events[row.event] })),
      `seed ${seed}`,
    ).toEqual([]);
    // Both answers occur often: the comparison is not between two constant functions.
    const wanted = rows.filter((row) => row.wants).length;
    expect(wanted).toBeGreaterThan(2000);
    expect(rows.length - wanted).toBeGreaterThan(2000);
  });
});
