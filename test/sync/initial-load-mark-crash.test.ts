import type { Pool } from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { ShipmentUpdate } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { Window } from '../../src/sync/types.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { shipmentHeader } from '../helpers/shipmentRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * A failure right after the last window of a first load committed (the database gone for one
 * statement, the process killed) must not leave the scope in its initial load: the next run's real
 * changes are live events, delivered, never stored as suppressed history.
 */

const logger = pino({ level: 'silent' });
const scope = { kind: 'account' as const, id: 'ACCM' };
const HOUR = 3_600_000;
const base = Date.parse('2026-06-01T00:00:00Z');
const hour = (i: number): Window => ({
  kind: 'minute',
  start: new Date(base + i * HOUR),
  end: new Date(base + (i + 1) * HOUR),
  advanceTo: new Date(base + (i + 1) * HOUR),
});

function shipment(id: string): ShipmentUpdate {
  return {
    header: shipmentHeader(id),
    lineItems: [{ containerId: id, lineNumber: 1, sku: 'SKU1', quantity: 2 }],
    events: [],
  };
}

let t: TestDatabase;
let config: Config;
const client = {
  listShipmentUpdates: async (q: { beginDate: string }) => ({
    records: [shipment(`S-${q.beginDate}`)],
    rejected: [],
  }),
} as unknown as FulfillmentClient;

/**
 * The test pool, except that the first statement outside a transaction after `commits` window
 * commits fails once, as a connection lost at that moment would.
 */
function failingOnceAfterCommits(
  pool: Pool,
  commits: number,
): { pool: Pool; failed: () => string | undefined } {
  let seen = 0;
  let failedSql: string | undefined;
  const connect = async () => {
    const client = await pool.connect();
    const query = client.query.bind(client) as (...a: unknown[]) => Promise<unknown>;
    return Object.assign(client, {
      // COPY streams go through untouched: only the COMMIT statement is counted.
      query: (...a: unknown[]) => {
        if (a[0] !== 'COMMIT') return query(...a);
        return (query(...a) as Promise<unknown>).then((result) => {
          seen += 1;
          return result;
        });
      },
    });
  };
  const query = async (...a: unknown[]) => {
    if (seen >= commits && failedSql === undefined) {
      failedSql = String(a[0]);
      throw new Error('Connection terminated unexpectedly');
    }
    return (pool.query as (...b: unknown[]) => Promise<unknown>)(...a);
  };
  const wrapped = new Proxy(pool, {
    get(target, prop, receiver) {
      if (prop === 'connect') return connect;
      if (prop === 'query') return query;
      return Reflect.get(target, prop, receiver);
    },
  });
  return { pool: wrapped, failed: () => failedSql };
}

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

describe('a failure between the last first-load window and the end of its run', () => {
  it('leaves the initial load complete: the next run delivers its real changes', async () => {
    const eventSink = createEventSink({
      timezone: config.timezone,
      thresholds: { lowStockThreshold: 2, lowStockThresholdsBySku: {} },
    });
    const crashing = failingOnceAfterCommits(t.pool, 2);
    const first = runStream({
      pool: crashing.pool,
      client,
      config,
      logger,
      stream: shipmentsStream,
      scope,
      windows: [hour(0), hour(1)],
      eventSink,
      leaseTtlMs: 1000,
    });
    // Whether the run reports the lost statement or not, both windows are stored.
    await first.catch(() => undefined);
    expect(crashing.failed()).toBeDefined();
    const stored = await t.pool.query('SELECT count(*)::int AS n FROM fulfillment.shipments');
    expect(stored.rows[0].n).toBe(2);

    const next = await runStream({
      pool: t.pool,
      client,
      config,
      logger,
      stream: shipmentsStream,
      scope,
      windows: [hour(2)],
      eventSink,
      leaseTtlMs: 1000,
    });
    expect(next.status).toBe('succeeded');
    const live = await t.pool.query(
      `SELECT type, suppressed FROM sync.events WHERE subject_key LIKE '%2026-05-31T19:00%' ORDER BY seq`,
    );
    expect(live.rows.length).toBeGreaterThan(0);
    expect(live.rows.every((r) => r.suppressed === false)).toBe(true);
  });
});
