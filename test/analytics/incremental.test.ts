import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RefreshOutcome, refreshAllAnalytics } from '../../src/analytics/refresh.ts';
import { differencesFromRebuild, mismatches } from '../helpers/analyticsRebuild.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { type SimulatedWeek, syncSimulatedWeek } from '../helpers/simulatedWeek.ts';

/**
 * The analytics tables the worker keeps take in only what changed, and end up exactly as a rebuild
 * from the same synced tables would make them: over a simulated week synced every few hours, after
 * hand-made changes the week does not make (a row first seen at zero, activity reaching further
 * back, deletions), across a new Pacific day, and after a truncate.
 */

let week: SimulatedWeek;
let t: TestDatabase;
const steps: RefreshOutcome[][] = [];
const differences: ReturnType<typeof mismatches>[] = [];

async function refreshAndCompare(): Promise<RefreshOutcome[]> {
  const outcomes = await refreshAllAnalytics(t.pool);
  const failed = outcomes.filter((o) => o.status === 'failed');
  if (failed.length > 0) throw new Error(JSON.stringify(failed));
  differences.push(mismatches(await differencesFromRebuild(t.pool)));
  return outcomes;
}

beforeAll(async () => {
  week = await syncSimulatedWeek({
    seed: 23,
    days: 4,
    historyDays: 3,
    stepHours: 6,
    winesPerSupplier: 6,
    afterSync: async (db) => {
      t = db;
      steps.push(await refreshAndCompare());
    },
  });
}, 300_000);

afterAll(() => week?.close());

const rowsOf = async (sql: string) => (await t.pool.query(sql)).rows;

describe('the analytics tables the worker keeps', () => {
  it('take in each sync of a simulated week and equal a rebuild after every one', () => {
    expect(differences.flat()).toEqual([]);
    // After the install's rebuild, every step only took in what changed.
    const later = steps.slice(1).flat();
    expect(later.every((o) => o.status === 'refreshed' && !o.rebuilt)).toBe(true);
    expect(later.filter((o) => o.relation === 'analytics.shipment_facts').every((o) => o.changes > 0)).toBe(
      true,
    );
    expect(later.filter((o) => o.relation === 'analytics.daily_inventory').some((o) => o.changes > 0)).toBe(
      true,
    );
  });

  it('equal a rebuild after changes the week does not make', async () => {
    await t.pool.query(`
      -- A shipment added to an order, another moved back a week, scans and a line deleted.
      INSERT INTO fulfillment.shipments (container_id, account_number, order_number, ship_date, carrier_name, status_code)
      SELECT 'T-NEW', account_number, order_number, now() - interval '1 hour', 'CarrierZ', 'IN_TRANSIT'
        FROM fulfillment.orders ORDER BY order_number LIMIT 1;
      INSERT INTO fulfillment.shipment_lines (container_id, line_number, sku, quantity) VALUES ('T-NEW', 1, '1W001', 4);
      UPDATE fulfillment.shipments SET status_code = 'DELIVERED', ship_date = ship_date - interval '8 days'
       WHERE container_id = (SELECT container_id FROM fulfillment.shipments ORDER BY container_id LIMIT 1 OFFSET 5);
      DELETE FROM fulfillment.shipment_events
       WHERE container_id = (SELECT container_id FROM fulfillment.shipments ORDER BY container_id LIMIT 1 OFFSET 7);
      DELETE FROM fulfillment.shipment_lines
       WHERE container_id = (SELECT container_id FROM fulfillment.shipments ORDER BY container_id LIMIT 1 OFFSET 9);
      -- The same units, another SKU: only the lines tell.
      UPDATE fulfillment.shipment_lines SET sku = 'T-SWAP'
       WHERE container_id = (SELECT container_id FROM fulfillment.shipments ORDER BY container_id LIMIT 1 OFFSET 11);
      UPDATE fulfillment.orders SET warehouse_code = 'XXX'
       WHERE order_number = (SELECT order_number FROM fulfillment.orders ORDER BY order_number LIMIT 1 OFFSET 3);
      INSERT INTO fulfillment.returns (ship_return_id, account_number, order_number, return_date)
      SELECT 999001, account_number, order_number, now() FROM fulfillment.orders ORDER BY order_number LIMIT 1 OFFSET 4;
      -- Versions closed and opened, out and back in; a row first seen now, at zero; a version deleted.
      WITH k AS (SELECT supplier_id, warehouse_code, sub_inventory_code, sku, valid_from FROM fulfillment.inventory_history
                  WHERE valid_to IS NULL ORDER BY sku, warehouse_code, sub_inventory_code LIMIT 8),
      closed AS (UPDATE fulfillment.inventory_history h SET valid_to = now() - interval '30 minutes' FROM k
                  WHERE (h.supplier_id, h.warehouse_code, h.sub_inventory_code, h.sku, h.valid_from)
                      = (k.supplier_id, k.warehouse_code, k.sub_inventory_code, k.sku, k.valid_from) RETURNING h.*)
      INSERT INTO fulfillment.inventory_history (supplier_id, warehouse_code, sub_inventory_code, sku, valid_from,
                                                 qty_on_hand, qty_available_to_sell)
      SELECT supplier_id, warehouse_code, sub_inventory_code, sku, now() - interval '30 minutes',
             CASE WHEN qty_available_to_sell > 0 THEN 0 ELSE 7 END, CASE WHEN qty_available_to_sell > 0 THEN 0 ELSE 7 END
        FROM closed;
      INSERT INTO fulfillment.inventory_history (supplier_id, warehouse_code, sub_inventory_code, sku, valid_from,
                                                 qty_on_hand, qty_available_to_sell)
      VALUES ('SUP100', 'GLW', 'FG', 'T-SKU', now() - interval '10 minutes', 0, 0);
      DELETE FROM fulfillment.inventory_history
       WHERE (supplier_id, warehouse_code, sub_inventory_code, sku, valid_from) = (
         SELECT supplier_id, warehouse_code, sub_inventory_code, sku, valid_from FROM fulfillment.inventory_history
          WHERE valid_to IS NOT NULL ORDER BY valid_from DESC, sku LIMIT 1);
      -- Today's activity, one day in the reconstructed past, and the history read reaching a day further back.
      UPDATE fulfillment.inventory_activity SET ending_on_hand = ending_on_hand + 1
       WHERE activity_date = (SELECT max(activity_date) FROM fulfillment.inventory_activity);
      UPDATE fulfillment.inventory_activity SET ending_on_hand = ending_on_hand + 3
       WHERE (supplier_id, activity_date, warehouse_code, sub_inventory_code, sku) = (
         SELECT supplier_id, activity_date, warehouse_code, sub_inventory_code, sku FROM fulfillment.inventory_activity
          ORDER BY activity_date, sku LIMIT 1 OFFSET 7);
      INSERT INTO fulfillment.inventory_activity (supplier_id, activity_date, warehouse_code, sub_inventory_code, sku,
                                                  beginning_on_hand, ending_on_hand, qty_shipped)
      SELECT supplier_id, activity_date - 1, warehouse_code, sub_inventory_code, sku, beginning_on_hand + 5,
             beginning_on_hand, 5
        FROM fulfillment.inventory_activity
       WHERE activity_date = (SELECT min(activity_date) FROM fulfillment.inventory_activity) LIMIT 2;`);
    const outcomes = await refreshAndCompare();
    expect(differences.at(-1)).toEqual([]);
    expect(outcomes.every((o) => o.status === 'refreshed' && !o.rebuilt)).toBe(true);
    const firstSeen = await rowsOf(
      `SELECT out_when_first_seen, is_ongoing FROM analytics.stock_out_spells WHERE sku = 'T-SKU'`,
    );
    expect(firstSeen).toEqual([{ out_when_first_seen: true, is_ongoing: true }]);
  });

  it('carry the rows still open into a new Pacific day', async () => {
    // As if the last refresh ran before midnight two days ago: the rows end the day before yesterday.
    await t.pool.query(
      `DELETE FROM analytics.daily_inventory WHERE day >= (now() AT TIME ZONE 'America/Los_Angeles')::date - 1`,
    );
    await refreshAndCompare();
    expect(differences.at(-1)).toEqual([]);
    const today = await rowsOf(
      `SELECT count(*)::int AS n FROM analytics.daily_inventory WHERE day = (now() AT TIME ZONE 'America/Los_Angeles')::date`,
    );
    expect(today[0]!.n).toBeGreaterThan(0);
  });

  it('are rebuilt after a truncate of a table they read', async () => {
    await t.pool.query('TRUNCATE fulfillment.order_holds');
    const outcomes = await refreshAndCompare();
    expect(outcomes.find((o) => o.relation === 'analytics.order_lifecycle')?.rebuilt).toBe(true);
    expect(differences.at(-1)).toEqual([]);
  });
});
