import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import type { Config } from '../../src/config/types.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { inventoryStream } from '../../src/streams/inventory.ts';
import { inventoryActivityStream } from '../../src/streams/inventoryActivity.ts';
import { ordersStream } from '../../src/streams/orders.ts';
import { productsStream } from '../../src/streams/products.ts';
import { returnsStream } from '../../src/streams/returns.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { transfersInStream } from '../../src/streams/transfersIn.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { Scope, StreamDefinition } from '../../src/sync/types.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { simulatorClient } from '../helpers/syncHarness.ts';
import { warehouseMismatches } from '../helpers/warehouseTruth.ts';
import { tuplesWritten } from './tuples.ts';

/**
 * The supplier streams (and orders) against the simulator over HTTP with a manual clock: a simulated week with
 * a sync every few hours, then the warehouse must equal the simulator's truth, and a second sync
 * with nothing changed must write zero tuples. (Orders need the shipments and returns streams,
 * which name them, so those run too.)
 */

const logger = pino({ level: 'silent' });
const START = new Date('2026-03-02T08:00:00Z');
const HISTORY_DAYS = 3;
const DAYS = Number(process.env.STREAMS_B_DAYS ?? 7);
// A sync every few simulated hours (every 2 with SLOW_TESTS=1).
const STEP_HOURS = process.env.SLOW_TESTS === '1' ? 2 : 8;
const TABLES = [
  'inventory',
  'inventory_history',
  'inventory_activity',
  'transfers_in',
  'transfer_in_lines',
  'transfer_in_notes',
  'products',
  'product_selling_infos',
  'product_pto_components',
  'product_bom_inventories',
  'orders',
  'order_lines',
  'order_holds',
  'order_messages',
  'order_addresses',
];

let t: TestDatabase;
let sim: RunningSimulator;
let client: FulfillmentClient;
let config: Config;

beforeAll(async () => {
  t = await createTestDatabase();
  sim = await startSimulator({
    seed: 11,
    clock: 'manual',
    start: START,
    volume: { historyDays: HISTORY_DAYS, suppliers: 1, winesPerSupplier: 8 },
  });
  const syncStart = new Date(START.getTime() - HISTORY_DAYS * 86_400_000).toISOString();
  // Wider windows than the defaults: the same data in fewer calls, so the week runs in seconds.
  const streams = {
    transfers_in: { windowSize: 91 },
    returns: { windowSize: 31 },
    shipments: { windowSize: STEP_HOURS * 60 + 180 },
  };
  config = loadConfig({
    DATABASE_URL: t.url,
    FULFILLMENT_SYNC_START: syncStart,
    FULFILLMENT_STREAMS: JSON.stringify(streams),
  });
  const w = sim.truth();
  world = { suppliers: w.suppliers, accounts: w.accounts };
  client = simulatorClient(sim, config);
});
afterAll(async () => {
  await sim?.close();
  await t?.close();
});

const SUPPLIER_STREAMS = [productsStream, inventoryStream, inventoryActivityStream, transfersInStream];
const ACCOUNT_STREAMS = [shipmentsStream, returnsStream, ordersStream];

const timings = new Map<string, number>();
let world: { suppliers: string[]; accounts: string[] };

/** One sync of every stream and scope at the simulator's now; fails the test on any failed run. */
async function syncAll(): Promise<void> {
  const now = new Date(sim.clock.now());
  const run = async (stream: StreamDefinition<never, FulfillmentClient>, scope: Scope) => {
    const began = performance.now();
    const result = await runStream({ pool: t.pool, client, config, logger, stream, scope, now });
    timings.set(stream.name, (timings.get(stream.name) ?? 0) + performance.now() - began);
    if (result.status !== 'succeeded')
      throw new Error(`${stream.name} ${scope.id}: ${result.status} ${result.error ?? ''}`);
  };
  for (const id of world.suppliers)
    for (const s of SUPPLIER_STREAMS)
      await run(s as StreamDefinition<never, FulfillmentClient>, { kind: 'supplier', id });
  for (const id of world.accounts)
    for (const s of ACCOUNT_STREAMS)
      await run(s as StreamDefinition<never, FulfillmentClient>, { kind: 'account', id });
}

describe('supplier streams and orders over a simulated week', () => {
  it('ends equal to the simulator truth, and a second sync writes zero tuples', async () => {
    for (let hour = 0; hour <= DAYS * 24; hour += STEP_HOURS) {
      if (hour > 0) sim.advance(STEP_HOURS * 60);
      await syncAll();
    }
    // Empty one stocked sub-inventory row the way the simulator does (it stops being listed), so
    // the vanishing path is exercised whatever the seed did during the week.
    const victim = [...sim.world.inventory.values()].find((r) => !r.dropped && r.qtyOnHand > 0);
    if (!victim) throw new Error('the simulated world has no stocked inventory row to empty');
    victim.dropped = true;
    await syncAll();
    if (process.env.STREAMS_B_TIMINGS)
      console.log(Object.fromEntries([...timings].map(([n, ms]) => [n, Math.round(ms)])));
    const truth = sim.truth();
    // The week did happen: stock moved, INs changed status, orders were named.
    const kinds = new Set(truth.history.map((h) => h.kind));
    expect(kinds.has('inventory.changed')).toBe(true);
    expect(kinds.has('transfer_in.status_changed')).toBe(true);

    expect(
      await warehouseMismatches(t.pool, truth, {
        streams: ['inventory', 'inventory_activity', 'transfers_in', 'products', 'orders'],
        namedOrdersOnly: true,
      }),
    ).toEqual([]);

    // The history's open versions equal the current table.
    const drift = await t.pool.query(
      `SELECT count(*)::int AS n FROM fulfillment.inventory i
         LEFT JOIN fulfillment.inventory_history h USING (supplier_id, warehouse_code, sub_inventory_code, sku)
        WHERE h.valid_to IS NULL AND h.qty_on_hand IS DISTINCT FROM i.qty_on_hand`,
    );
    expect(drift.rows[0].n).toBe(0);

    // Rows the snapshot stopped listing (emptied sub-inventories) are zeroed, their history closed
    // with an open zero version after it.
    const vanished = await t.pool.query(
      `SELECT i.sku, (SELECT array_agg(h.qty_on_hand ORDER BY h.valid_from) FROM fulfillment.inventory_history h
                 WHERE (h.supplier_id, h.warehouse_code, h.sub_inventory_code, h.sku)
                     = (i.supplier_id, i.warehouse_code, i.sub_inventory_code, i.sku)) AS versions,
              (SELECT count(*)::int FROM fulfillment.inventory_history h
                 WHERE (h.supplier_id, h.warehouse_code, h.sub_inventory_code, h.sku)
                     = (i.supplier_id, i.warehouse_code, i.sub_inventory_code, i.sku) AND h.valid_to IS NULL) AS open
         FROM fulfillment.inventory i WHERE i.vanished_at IS NOT NULL`,
    );
    if (process.env.STREAMS_B_TIMINGS) console.log('vanished rows', vanished.rows);
    expect(vanished.rows.length).toBeGreaterThan(0);
    for (const v of vanished.rows) {
      expect(v.versions.length).toBeGreaterThan(1);
      expect(v.open).toBe(1);
      expect(v.versions.at(-1)).toBe(0);
    }

    const cursors = () =>
      t.pool.query('SELECT stream, scope, position_at, position FROM sync.cursors ORDER BY stream, scope');
    const cursorsBefore = (await cursors()).rows;
    const before = await tuplesWritten(t.pool, TABLES);
    await syncAll();
    expect(await tuplesWritten(t.pool, TABLES)).toBe(before);
    // Nothing moved but the time of last success.
    expect((await cursors()).rows).toEqual(cursorsBefore);
  });
});
