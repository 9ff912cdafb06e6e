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
 * The window pipeline prepares a part while the one before it commits (src/sync/windowPipeline.ts).
 * Two promises that must survive that: a part holding a record the previous part writes sees that
 * write (an update, never a second insert of the key), and no upstream call is ever made while a
 * transaction of the run is open.
 */

const logger = pino({ level: 'silent' });
const scope = { kind: 'account' as const, id: 'ACCPIPE' };
const HOUR = 3_600_000;
const start = new Date('2026-06-01T08:00:00Z');
/** Four one-hour windows, as a backfill plans them. */
const windows: Window[] = [0, 1, 2, 3].map((i) => ({
  kind: 'minute',
  start: new Date(start.getTime() + i * HOUR),
  end: new Date(start.getTime() + (i + 1) * HOUR),
}));

let t: TestDatabase;
let config: Config;
beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

/** Sessions of the test database with a transaction open, other than the one asking. */
async function openTransactions(): Promise<number> {
  const res = await t.pool.query(
    `SELECT count(*)::int AS n FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() AND xact_start IS NOT NULL`,
  );
  return res.rows[0].n;
}

describe('the window pipeline', () => {
  it('lets a part see what the part before it wrote, and calls upstream only with no transaction open', async () => {
    // Every window answers many shipments of its own and the same container C-SHARED, whose status
    // moves on window by window.
    const statuses = ['SHIPPED', 'IN_TRANSIT', 'EXCEPTION', 'DELIVERED'];
    const openWhileFetching: number[] = [];
    let call = 0;
    const client = {
      listShipmentUpdates: async () => {
        openWhileFetching.push(await openTransactions());
        const i = call++;
        const own: ShipmentUpdate[] = Array.from({ length: 2000 }, (_, j) => ({
          header: shipmentHeader(`C-${i}-${j}`),
          lineItems: [{ containerId: `C-${i}-${j}`, lineNumber: 1, sku: 'SKU1', quantity: 1 }],
          events: [],
        }));
        return {
          records: [...own, { header: shipmentHeader('C-SHARED', statuses[i]), lineItems: [], events: [] }],
          rejected: [],
        };
      },
    } as unknown as FulfillmentClient;
    const result = await runStream({
      pool: t.pool,
      client,
      config,
      logger,
      stream: shipmentsStream,
      scope,
      mode: 'backfill',
      windows,
      now: windows[3]!.end,
      eventSink: createEventSink({ timezone: config.timezone, thresholds: config.events }),
      emitEvents: true,
    });
    expect(result).toMatchObject({ status: 'succeeded', windows: 4, inserted: 8001, updated: 3 });
    expect(openWhileFetching).toEqual([0, 0, 0, 0]);
    const shared = await t.pool.query(
      "SELECT status_code FROM fulfillment.shipments WHERE container_id = 'C-SHARED'",
    );
    expect(shared.rows).toEqual([{ status_code: 'DELIVERED' }]);
    const events = await t.pool.query(
      `SELECT type FROM sync.events WHERE subject_key = 'C-SHARED' ORDER BY occurred_at, type`,
    );
    expect(events.rows.map((r) => r.type)).toContain('shipment.delivered');
    expect(events.rows.filter((r) => r.type === 'shipment.created')).toHaveLength(1);
  });
});
