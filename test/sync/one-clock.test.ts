import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { OwnedInventory } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { inventoryStream, planInventoryWindows } from '../../src/streams/inventory.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * One clock: every time the engine writes into the warehouse and the cursor comes from the run's
 * injected clock, never from the database's now() or the wall clock, so a simulated week reads as
 * that week and a replayed run stamps what it would have stamped. Runs here are in 2020, far from
 * any wall clock. (The run log's started_at/finished_at, leases and detail-request ordering are
 * real time on purpose: they measure durations and order concurrent processes.)
 */

const logger = pino({ level: 'silent' });
const scope = { kind: 'supplier' as const, id: 'SUPCLOCK' };
const T1 = new Date('2020-01-01T08:00:00Z');
const T2 = new Date('2020-01-02T08:00:00Z');

function stock(sku: string, qty: number): OwnedInventory {
  return {
    warehouseCode: 'GLW',
    sku,
    subInventoryCode: 'FG',
    qtyOnHand: qty,
    qtyOnOrders: 0,
    qtyOnIns: 0,
    qtyAvailableToSell: qty,
    qtyAvailableToPromise: qty,
  } as OwnedInventory;
}

let t: TestDatabase;
let config: Config;
let answer: OwnedInventory[] = [];
const client = {
  listOwnedInventory: async () => ({ records: structuredClone(answer), rejected: [] }),
} as unknown as FulfillmentClient;

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

const run = (now: Date) =>
  runStream({
    pool: t.pool,
    client,
    config,
    logger,
    stream: inventoryStream,
    scope,
    now,
    eventSink: createEventSink({ timezone: config.timezone, thresholds: config.events }),
    windows: planInventoryWindows({ now }, ['GLW']),
  });

async function rows(sql: string): Promise<Record<string, unknown>[]> {
  return (await t.pool.query(sql)).rows;
}

describe('times the engine writes', () => {
  it('come from the run clock: synced_at, vanished_at, history versions, events, cursor', async () => {
    answer = [stock('KEEP', 5), stock('GONE', 3), stock('MOVE', 7)];
    expect(await run(T1)).toMatchObject({ status: 'succeeded', inserted: 3 });
    // A day later: one row vanishes, one changes (upsert), one stays as it was.
    answer = [stock('KEEP', 5), stock('MOVE', 2)];
    expect(await run(T2)).toMatchObject({ status: 'succeeded', updated: 2 });

    expect(await rows('SELECT sku, synced_at, vanished_at FROM fulfillment.inventory ORDER BY sku')).toEqual([
      { sku: 'GONE', synced_at: T2, vanished_at: T2 },
      { sku: 'KEEP', synced_at: T1, vanished_at: null },
      { sku: 'MOVE', synced_at: T2, vanished_at: null },
    ]);
    expect(
      await rows(
        'SELECT sku, valid_from, valid_to FROM fulfillment.inventory_history ORDER BY sku, valid_from',
      ),
    ).toEqual([
      { sku: 'GONE', valid_from: T1, valid_to: T2 },
      { sku: 'GONE', valid_from: T2, valid_to: null },
      { sku: 'KEEP', valid_from: T1, valid_to: null },
      { sku: 'MOVE', valid_from: T1, valid_to: T2 },
      { sku: 'MOVE', valid_from: T2, valid_to: null },
    ]);
    const detected = await rows('SELECT DISTINCT detected_at FROM sync.events ORDER BY 1');
    expect(detected).toEqual([{ detected_at: T1 }, { detected_at: T2 }]);
    expect(await rows('SELECT last_success_at, updated_at FROM sync.cursors')).toEqual([
      { last_success_at: T2, updated_at: T1 },
    ]);
  });
});
