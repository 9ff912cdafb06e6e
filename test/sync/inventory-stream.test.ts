import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerTooLargeError } from '../../src/api/errors.ts';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { OwnedInventory } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { inventoryStream, planInventoryWindows } from '../../src/streams/inventory.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';
import { tuplesWritten } from './tuples.ts';

/** The inventory stream against real Postgres with a scripted Inventories/Owned: diff, vanish, SCD2. */

const logger = pino({ level: 'silent' });
const scope = { kind: 'supplier' as const, id: 'SUP1' };
const TABLES = ['inventory', 'inventory_history'];

function row(sku: string, onHand: number, sub = 'FG'): OwnedInventory {
  return {
    warehouseCode: 'GLW',
    warehouseName: 'Glenwillow',
    sku,
    description: `wine ${sku}`,
    providerSku: `P${sku}`,
    subInventoryCode: sub,
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
let answer: OwnedInventory[] = [];
const calls: Array<Record<string, unknown>> = [];
const client = {
  listOwnedInventory: async (query: Record<string, unknown>) => {
    calls.push(query);
    return { records: query.warehouseCode === 'GLW' ? structuredClone(answer) : [], rejected: [] };
  },
} as unknown as FulfillmentClient;

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
    windows: planInventoryWindows({ now: new Date() }, ['GLW']),
  });

async function history(sku: string) {
  const res = await t.pool.query(
    `SELECT qty_on_hand, valid_from, valid_to FROM fulfillment.inventory_history WHERE sku = $1 ORDER BY valid_from`,
    [sku],
  );
  return res.rows as Array<{ qty_on_hand: number; valid_from: Date; valid_to: Date | null }>;
}

describe('inventory stream', () => {
  it('stores the snapshot with its supplier and asks for every row, on hand or not', async () => {
    answer = [row('A', 5), row('B', 3)];
    const first = await run();
    expect(first).toMatchObject({ status: 'succeeded', inserted: 2 });
    expect(calls[0]).toMatchObject({ supplierId: 'SUP1', warehouseCode: 'GLW', onHandOnly: false });
    const res = await t.pool.query(
      'SELECT supplier_id, sku, qty_on_hand, vanished_at FROM fulfillment.inventory ORDER BY sku',
    );
    expect(res.rows).toEqual([
      { supplier_id: 'SUP1', sku: 'A', qty_on_hand: 5, vanished_at: null },
      { supplier_id: 'SUP1', sku: 'B', qty_on_hand: 3, vanished_at: null },
    ]);
    expect(await history('A')).toMatchObject([{ qty_on_hand: 5, valid_to: null }]);
    // Each version names the run (sync.runs) that wrote it.
    const runs = await t.pool.query('SELECT DISTINCT run_id FROM fulfillment.inventory_history');
    expect(runs.rows).toEqual([{ run_id: String(first.lastRunId) }]);
  });

  it('writes zero tuples when nothing changed', async () => {
    const before = await tuplesWritten(t.pool, TABLES);
    expect(await run()).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0, unchanged: 2 });
    expect(await tuplesWritten(t.pool, TABLES)).toBe(before);
  });

  it('versions a change: the open history row is closed when the new one opens', async () => {
    answer = [row('A', 9), row('B', 3)];
    expect(await run()).toMatchObject({ updated: 1, unchanged: 1 });
    const h = await history('A');
    expect(h.map((r) => r.qty_on_hand)).toEqual([5, 9]);
    expect(h[0]!.valid_to).toEqual(h[1]!.valid_from);
    expect(h[1]!.valid_to).toBeNull();
  });

  it('zeroes a vanished row, closes its history with a zero successor, and stays quiet after', async () => {
    answer = [row('A', 9)];
    expect(await run()).toMatchObject({ updated: 1, unchanged: 1 });
    const b = await t.pool.query(`SELECT * FROM fulfillment.inventory WHERE sku = 'B'`);
    expect(b.rows[0]).toMatchObject({
      qty_on_hand: 0,
      qty_on_orders: 0,
      qty_on_ins: 0,
      qty_available_to_sell: 0,
      qty_available_to_promise: 0,
    });
    expect(b.rows[0].vanished_at).toBeInstanceOf(Date);
    const h = await history('B');
    expect(h.map((r) => r.qty_on_hand)).toEqual([3, 0]);
    expect(h[0]!.valid_to).toEqual(h[1]!.valid_from);
    expect(h[1]!.valid_to).toBeNull();

    const before = await tuplesWritten(t.pool, TABLES);
    expect(await run()).toMatchObject({ inserted: 0, updated: 0 });
    expect(await tuplesWritten(t.pool, TABLES)).toBe(before);
  });

  it('revives a row that comes back, clearing vanished_at', async () => {
    answer = [row('A', 9), row('B', 4)];
    expect(await run()).toMatchObject({ updated: 1 });
    const b = await t.pool.query(
      `SELECT qty_on_hand, vanished_at FROM fulfillment.inventory WHERE sku = 'B'`,
    );
    expect(b.rows[0]).toEqual({ qty_on_hand: 4, vanished_at: null });
    expect((await history('B')).map((r) => r.qty_on_hand)).toEqual([3, 0, 4]);
    const open = await t.pool.query(
      'SELECT count(*)::int AS n FROM fulfillment.inventory_history WHERE valid_to IS NULL',
    );
    expect(open.rows[0].n).toBe(2);
  });

  it("reads the supplier's whole inventory in one call, and warehouse by warehouse only when that answer is too large", async () => {
    const other = { ...row('Z', 6), warehouseCode: 'PSO', warehouseName: 'Paso Robles' };
    const asked: Array<string | undefined> = [];
    let wholeTooLarge = false;
    const whole = {
      listOwnedInventory: async (query: { warehouseCode?: string }) => {
        asked.push(query.warehouseCode);
        if (!query.warehouseCode && wholeTooLarge)
          throw new AnswerTooLargeError('answer at the row cap', { operation: 'GET Inventories/Owned' });
        const all = [row('A', 9), row('B', 4), other];
        return {
          records: all.filter((r) => !query.warehouseCode || r.warehouseCode === query.warehouseCode),
          rejected: [],
        };
      },
    } as unknown as FulfillmentClient;
    const runWhole = () =>
      runStream({ pool: t.pool, client: whole, config, logger, stream: inventoryStream, scope });
    expect(await runWhole()).toMatchObject({ status: 'succeeded', inserted: 1, apiCalls: 1 });
    expect(asked).toEqual([undefined]);

    asked.length = 0;
    wholeTooLarge = true;
    const split = await runWhole();
    expect(split).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0 });
    expect(asked[0]).toBeUndefined();
    expect(asked.slice(1)).toContain('PSO');
    expect(split.apiCalls).toBe(asked.length);
  });
});
