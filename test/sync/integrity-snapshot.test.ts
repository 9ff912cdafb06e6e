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
import { tuplesWritten } from './tuples.ts';

/**
 * A snapshot with a rejected row: the rejected row must not be taken for vanished, zeroed and
 * announced out of stock, but every other row that truly vanished still must be. Only a rejected
 * row whose key cannot be read suspends vanish detection (any stored row might be it).
 */

const logger = pino({ level: 'silent' });
const scope = { kind: 'supplier' as const, id: 'SUP9' };
const TABLES = ['inventory', 'inventory_history'];

function row(sku: string, onHand: number): OwnedInventory {
  return {
    warehouseCode: 'GLW',
    warehouseName: 'Glenwillow',
    sku,
    description: `wine ${sku}`,
    providerSku: `P${sku}`,
    subInventoryCode: 'FG',
    subInventoryName: 'Finished goods',
    qtyOnHand: onHand,
    qtyOnOrders: 1,
    qtyOnIns: 0,
    qtyAvailableToSell: onHand - 1,
    qtyAvailableToPromise: onHand - 1,
  };
}

let t: TestDatabase;
let config: Config;
let answer: { records: OwnedInventory[]; rejected: { index: number; reason: string; raw: unknown }[] };
const client = {
  listOwnedInventory: async (query: Record<string, unknown>) =>
    query.warehouseCode === 'GLW' ? structuredClone(answer) : { records: [], rejected: [] },
} as unknown as FulfillmentClient;
const eventSink = createEventSink({
  timezone: 'UTC',
  thresholds: { lowStockThreshold: 2, lowStockThresholdsBySku: {} },
});

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

const run = () =>
  runStream({
    pool: t.pool,
    client,
    config,
    logger,
    stream: inventoryStream,
    scope,
    eventSink,
    windows: planInventoryWindows({ now: new Date() }, ['GLW']),
  });

const stored = async () =>
  (
    await t.pool.query(
      'SELECT sku, qty_on_hand, vanished_at IS NOT NULL AS vanished FROM fulfillment.inventory WHERE supplier_id = $1 ORDER BY sku',
      [scope.id],
    )
  ).rows;
const eventsOf = async (sku: string) =>
  (
    await t.pool.query(
      "SELECT type FROM sync.events WHERE subject_kind = 'inventory' AND subject_key LIKE $1 AND NOT suppressed ORDER BY seq",
      [`%${sku}`],
    )
  ).rows.map((r) => r.type as string);

describe('snapshot with rejected rows', () => {
  it('protects only the rejected row: a row that truly vanished meanwhile is zeroed and announced', async () => {
    answer = { records: [row('A', 5), row('B', 3), row('C', 7), row('D', 4)], rejected: [] };
    expect(await run()).toMatchObject({ status: 'succeeded', inserted: 4 });
    await run(); // the initial load is over: the next changes are live

    // B comes back with a wrong-typed quantity (the client rejects it); D is really gone.
    answer = {
      records: [row('A', 5), row('C', 7)],
      rejected: [{ index: 1, reason: 'qtyOnHand: expected number', raw: { ...row('B', 3), qtyOnHand: 'x' } }],
    };
    const result = await run();
    expect(result).toMatchObject({ status: 'partial', rejected: 1, inserted: 0, updated: 1, unchanged: 2 });
    expect(result.vanishChecksSkipped ?? 0).toBe(0);
    expect(await stored()).toEqual([
      { sku: 'A', qty_on_hand: 5, vanished: false },
      { sku: 'B', qty_on_hand: 3, vanished: false },
      { sku: 'C', qty_on_hand: 7, vanished: false },
      { sku: 'D', qty_on_hand: 0, vanished: true },
    ]);
    expect(await eventsOf('B')).toEqual([]);
    expect(await eventsOf('D')).toContain('inventory.out_of_stock');
    const rejected = await t.pool.query(
      `SELECT r.reason, r.raw, r.record_key, runs.status FROM sync.rejected_records r
         JOIN sync.runs runs ON runs.id = r.run_id WHERE r.stream = 'inventory'`,
    );
    expect(rejected.rows).toHaveLength(1);
    expect(rejected.rows[0]).toMatchObject({
      reason: 'qtyOnHand: expected number',
      raw: { sku: 'B', qtyOnHand: 'x' },
      status: 'partial',
    });
  });

  it('a row whose key cannot be read suspends vanish detection for that snapshot, with a warning', async () => {
    answer = {
      records: [row('A', 5), row('B', 3)],
      rejected: [{ index: 2, reason: 'sku: expected string', raw: { ...row('C', 7), sku: 17 } }],
    };
    const before = await tuplesWritten(t.pool, TABLES);
    const result = await run();
    expect(result).toMatchObject({ status: 'partial', rejected: 1, updated: 0 });
    expect(result.vanishChecksSkipped).toBe(1);
    expect(await tuplesWritten(t.pool, TABLES)).toBe(before);
    const runs = await t.pool.query(
      "SELECT details FROM sync.runs WHERE stream = 'inventory' AND status = 'partial' ORDER BY id DESC LIMIT 1",
    );
    expect(JSON.stringify(runs.rows[0].details)).toMatch(/vanish detection skipped/);
    expect((await stored()).find((r) => r.sku === 'C')).toEqual({
      sku: 'C',
      qty_on_hand: 7,
      vanished: false,
    });
  });

  it('a vanished row that comes back is restocked: the outbox agrees with the warehouse', async () => {
    answer = { records: [row('A', 5), row('B', 3), row('C', 7), row('D', 6)], rejected: [] };
    const result = await run();
    expect(result).toMatchObject({ status: 'succeeded', updated: 1 });
    expect(await stored()).toContainEqual({ sku: 'D', qty_on_hand: 6, vanished: false });
    expect(await eventsOf('D')).toEqual([
      'inventory.changed',
      'inventory.low_stock',
      'inventory.out_of_stock',
      'inventory.changed',
      'inventory.restocked',
    ]);
  });
});
