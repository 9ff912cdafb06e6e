import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { OwnedInventory } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { inventoryStream, planInventoryWindows } from '../../src/streams/inventory.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { EventSink, RecordChange } from '../../src/sync/types.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';
import { tuplesWritten } from './tuples.ts';

/**
 * A snapshot with a rejected row is not a complete picture of what exists: the rejected row (and
 * every other stored row) must not be taken for vanished, zeroed and announced out of stock.
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
const sunk: RecordChange<unknown>[] = [];
const eventSink: EventSink = async ({ changes }) => {
  sunk.push(...changes);
  return changes.length;
};

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

describe('snapshot with rejected rows', () => {
  it('zeroes nothing, derives no events, is partial and quarantines the rejected row', async () => {
    answer = { records: [row('A', 5), row('B', 3), row('C', 7)], rejected: [] };
    expect(await run()).toMatchObject({ status: 'succeeded', inserted: 3 });
    sunk.length = 0;
    const before = await tuplesWritten(t.pool, TABLES);

    // B comes back with a wrong-typed quantity: the client rejects it, A and C are unchanged.
    answer = {
      records: [row('A', 5), row('C', 7)],
      rejected: [{ index: 1, reason: 'qtyOnHand: expected number', raw: { ...row('B', 3), qtyOnHand: 'x' } }],
    };
    const result = await run();
    expect(result).toMatchObject({ status: 'partial', rejected: 1, inserted: 0, updated: 0, unchanged: 2 });
    expect(result.vanishChecksSkipped).toBe(1);
    expect(sunk).toEqual([]);
    expect(await tuplesWritten(t.pool, TABLES)).toBe(before);
    const stored = await t.pool.query(
      'SELECT sku, qty_on_hand, vanished_at FROM fulfillment.inventory WHERE supplier_id = $1 ORDER BY sku',
      [scope.id],
    );
    expect(stored.rows).toEqual([
      { sku: 'A', qty_on_hand: 5, vanished_at: null },
      { sku: 'B', qty_on_hand: 3, vanished_at: null },
      { sku: 'C', qty_on_hand: 7, vanished_at: null },
    ]);
    const open = await t.pool.query(
      'SELECT count(*)::int AS n FROM fulfillment.inventory_history WHERE valid_to IS NULL AND supplier_id = $1',
      [scope.id],
    );
    expect(open.rows[0].n).toBe(3);
    const rejected = await t.pool.query(
      `SELECT r.reason, r.raw, runs.status, runs.error FROM sync.rejected_records r
         JOIN sync.runs runs ON runs.id = r.run_id WHERE r.stream = 'inventory'`,
    );
    expect(rejected.rows).toHaveLength(1);
    expect(rejected.rows[0]).toMatchObject({
      reason: 'qtyOnHand: expected number',
      raw: { sku: 'B', qtyOnHand: 'x' },
      status: 'partial',
    });
    expect(rejected.rows[0].error).toMatch(/vanish detection skipped/);
  });

  it('the next clean snapshot zeroes a row that truly vanished', async () => {
    answer = { records: [row('A', 5), row('C', 7)], rejected: [] };
    const result = await run();
    expect(result).toMatchObject({ status: 'succeeded', updated: 1, unchanged: 2 });
    expect(result.vanishChecksSkipped ?? 0).toBe(0);
    const b = await t.pool.query(
      "SELECT qty_on_hand, vanished_at FROM fulfillment.inventory WHERE supplier_id = $1 AND sku = 'B'",
      [scope.id],
    );
    expect(b.rows[0].qty_on_hand).toBe(0);
    expect(b.rows[0].vanished_at).toBeInstanceOf(Date);
  });
});
