import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import { createEventSink } from '../../src/events/sink.ts';
import type { StreamRunResult } from '../../src/sync/types.ts';
import { type SyncHarness, startSyncHarness, syncEveryScope } from '../helpers/syncHarness.ts';
import { warehouseMismatches } from '../helpers/warehouseTruth.ts';
import { tuplesWritten } from './tuples.ts';

/**
 * Scopes larger than any cap: an upstream that silently cuts every answer at CAP rows, with
 * FULFILLMENT_MAX_ROWS_PER_WINDOW = CAP, and a supplier whose one warehouse (and its FG
 * sub-inventory), products listing (and its WINE item type) and DRAFT list (in that warehouse, per
 * delivery method) each hold more rows than CAP. On main the inventory stream of that supplier
 * failed on every run, and the products listing and the open-IN window could not be divided at
 * all. Read in parts by the API's finer filters, a simulated week converges to the truth with no
 * stream failing, a row emptied upstream inside a SKU-level part is zeroed (and no other row), and
 * an unchanged re-sync writes nothing.
 */

const logger = pino({ level: 'silent' });
const CAP = 30;
const START = new Date('2026-03-02T08:00:00Z');
const HISTORY_DAYS = 3;
const DAYS = Number(process.env.BIG_SCOPES_DAYS ?? 7);
// A sync every 3.5 simulated days of the supplier streams (every 12 hours, and the account
// streams too, with SLOW_TESTS=1): each run reads the big scopes in some hundred parts.
const SLOW = process.env.SLOW_TESTS === '1';
const STEP_HOURS = SLOW ? 12 : 84;
const WAREHOUSE = 'PSO';
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
];

let s: SyncHarness;
beforeAll(async () => {
  s = await startSyncHarness(
    {
      seed: 11,
      start: START,
      volume: {
        historyDays: HISTORY_DAYS,
        suppliers: 1,
        winesPerSupplier: 32,
        stockWarehouse: WAREHOUSE,
        draftTransfersIn: 60,
      },
      rowCap: CAP,
      rowCapMode: 'truncate',
    },
    {
      FULFILLMENT_MAX_ROWS_PER_WINDOW: String(CAP),
      FULFILLMENT_SYNC_START: new Date(START.getTime() - HISTORY_DAYS * 86_400_000).toISOString(),
      // Wider windows than the defaults: the same data in fewer calls (halved where too large).
      FULFILLMENT_STREAMS: JSON.stringify({
        transfers_in: { windowSize: 15, rereadDays: 12 },
        returns: { windowSize: 31 },
        shipments: { windowSize: STEP_HOURS * 60 + 180 },
      }),
    },
  );
});
afterAll(async () => {
  await s?.close();
});

/** The list queries the sync asked, as `operation {query}` (the client itself is the real one). */
const asked: string[] = [];
function recording(client: FulfillmentClient): FulfillmentClient {
  return {
    ...client,
    listOwnedInventory: (q, call) => {
      asked.push(`inventory ${JSON.stringify(q)}`);
      return client.listOwnedInventory(q, call);
    },
    listOwnedProducts: (q, call) => {
      asked.push(`products ${JSON.stringify(q)}`);
      return client.listOwnedProducts(q, call);
    },
    listTransfersIn: (q, call) => {
      asked.push(`transfers_in ${JSON.stringify(q)}`);
      return client.listTransfersIn(q, call);
    },
  };
}

async function syncAll(): Promise<void> {
  const eventSink = createEventSink({ timezone: s.config.timezone, thresholds: s.config.events });
  const client = recording(s.client);
  const began = performance.now();
  const firstAsk = asked.length;
  const failed: StreamRunResult[] = await syncEveryScope({
    ...s,
    client,
    pool: s.t.pool,
    logger,
    eventSink,
    ...(SLOW ? {} : { scopeKind: 'supplier' as const }),
  });
  if (process.env.BIG_SCOPES_TIMINGS) {
    const per = await s.t.pool.query(
      `SELECT stream, count(*)::int AS parts, sum(api_calls)::int AS calls,
              round(extract(epoch FROM max(finished_at) - min(started_at)) * 1000)::int AS ms
         FROM sync.runs WHERE started_at >= now() - make_interval(secs => $1::float8 / 1000) GROUP BY stream`,
      [performance.now() - began],
    );
    process.stderr.write(`sync ${Math.round(performance.now() - began)} ms ${JSON.stringify(per.rows)}\n`);
    if (process.env.BIG_SCOPES_TIMINGS === 'asked')
      process.stderr.write(`${asked.slice(firstAsk).join('\n')}\n`);
  }
  expect(failed.map((f) => `${f.stream} ${f.scope.id}: ${f.error}`)).toEqual([]);
}

describe('scopes larger than the row cap, silently cut at it', () => {
  it('a simulated week converges to the truth, vanish detection exact, no stream failing', async () => {
    const truth0 = s.sim.truth();
    const supplier = truth0.suppliers[0] as string;
    // The world is larger than the cap where no time window can help.
    const owned = truth0.ownedInventory[supplier] ?? [];
    const inWarehouse = owned.filter((r) => r.warehouseCode === WAREHOUSE);
    expect(inWarehouse.filter((r) => r.subInventoryCode === 'FG').length).toBeGreaterThan(CAP);
    const listing = [...s.sim.world.products.values()].filter((p) => p.supplierId === supplier);
    expect(listing.filter((p) => p.itemTypeCode === 'WINE').length).toBeGreaterThan(CAP);
    const drafts = [...s.sim.world.transfersIn.values()].filter(
      (t) => t.status === 'DRAFT' && t.deliveryMethodCode === 'PROVIDER_PICKUP',
    );
    expect(drafts.length).toBeGreaterThanOrEqual(CAP);

    for (let hour = 0; hour <= DAYS * 24; hour += STEP_HOURS) {
      if (hour > 0) s.sim.advance(STEP_HOURS * 60);
      await syncAll();
    }
    // Two drafts cancelled: they leave the DRAFT list and are followed up by key in their part.
    const cancelled = drafts.slice(0, 2).map((d) => d.orderNumber);
    for (const orderNumber of cancelled)
      await s.client.cancelTransferIn({ supplierId: supplier, orderNumber });
    // A stocked FG row of the big warehouse is emptied the way the simulator does it: it stops
    // being listed, and only the SKU-level part covering its key can say so.
    const victim = [...s.sim.world.inventory.values()].find(
      (r) =>
        r.supplierId === supplier &&
        r.warehouseCode === WAREHOUSE &&
        r.subInventoryCode === 'FG' &&
        !r.dropped &&
        r.qtyOnHand > 0,
    );
    if (!victim) throw new Error('the simulated world has no stocked FG row to empty');
    victim.dropped = true;
    const vanishedBefore = await s.t.pool.query(
      'SELECT sku, warehouse_code, sub_inventory_code FROM fulfillment.inventory WHERE vanished_at IS NOT NULL',
    );
    await syncAll();

    const truth = s.sim.truth();
    expect(
      await warehouseMismatches(s.t.pool, truth, {
        streams: ['inventory', 'inventory_activity', 'transfers_in', 'products'],
      }),
    ).toEqual([]);
    // Exactly the emptied row vanished in the last run; nothing else was zeroed.
    const vanishedAfter = await s.t.pool.query(
      'SELECT sku, warehouse_code, sub_inventory_code FROM fulfillment.inventory WHERE vanished_at IS NOT NULL',
    );
    const key = (r: { sku: string; warehouse_code: string; sub_inventory_code: string }) =>
      `${r.warehouse_code}/${r.sub_inventory_code}/${r.sku}`;
    const newlyVanished = vanishedAfter.rows
      .map(key)
      .filter((k) => !vanishedBefore.rows.map(key).includes(k));
    expect(newlyVanished).toEqual([`${WAREHOUSE}/FG/${victim.sku}`]);
    const stillListed = new Set(
      (truth.ownedInventory[supplier] ?? []).map((r) => `${r.warehouseCode}/${r.subInventoryCode}/${r.sku}`),
    );
    expect(vanishedAfter.rows.map(key).filter((k) => stillListed.has(k))).toEqual([]);
    const ins = await s.t.pool.query(
      'SELECT order_number, status_code FROM fulfillment.transfers_in WHERE order_number = ANY($1) ORDER BY 1',
      [cancelled],
    );
    expect(ins.rows).toEqual(cancelled.sort().map((n) => ({ order_number: n, status_code: 'CANCELLED' })));

    // The parts were read: the warehouse by sub-inventory and by SKU, products by SKU, INs by day.
    expect(asked.some((q) => /^inventory .*"warehouseCode":"PSO","subInventoryCode":"QA"/.test(q))).toBe(
      true,
    );
    expect(asked.some((q) => /^inventory .*"sku":/.test(q))).toBe(true);
    expect(asked.some((q) => /^products .*"itemTypeCode":"WINE","sku":/.test(q))).toBe(true);
    expect(asked.some((q) => /^transfers_in .*"statusCode":"DRAFT".*"beginDate":/.test(q))).toBe(true);

    const before = await tuplesWritten(s.t.pool, TABLES);
    await syncAll();
    expect(await tuplesWritten(s.t.pool, TABLES)).toBe(before);
  }, 120_000);
});
