import { sql } from 'drizzle-orm';
import { boolean, date, integer, text } from 'drizzle-orm/pg-core';
import { analyticsSchema } from '../columns.ts';

/**
 * On-hand per supplier, warehouse, sub-inventory, SKU and Pacific day, at the end of the day.
 * Observed days come from fulfillment.inventory_history (the version open at the day's end).
 * Days before a row was first observed are reconstructed from fulfillment.inventory_activity,
 * which the first load reads back over the configured history: a day with activity ends at its
 * ending on-hand, which holds until the row's next activity; before its first activity the row
 * held that activity's beginning on-hand; a row with no activity at all held what it was first
 * observed with. Reconstruction starts at the supplier's earliest activity day (the history read)
 * and gives no available-to-sell (the activity has none). Materialized: a year is a row per key
 * and day.
 */

const LA = sql.raw(`'America/Los_Angeles'`);
const KEY = sql.raw('supplier_id, warehouse_code, sub_inventory_code, sku');

export const dailyInventory = analyticsSchema
  .materializedView('daily_inventory', {
    day: date('day', { mode: 'string' }),
    supplierId: text('supplier_id'),
    warehouseCode: text('warehouse_code'),
    subInventoryCode: text('sub_inventory_code'),
    sku: text('sku'),
    qtyOnHand: integer('qty_on_hand'),
    qtyAvailableToSell: integer('qty_available_to_sell'),
    isReconstructed: boolean('is_reconstructed'),
  })
  .as(sql`
    WITH today AS (SELECT (now() AT TIME ZONE ${LA})::date AS day),
    coverage AS (
      SELECT supplier_id, min(activity_date) AS first_day FROM fulfillment.inventory_activity GROUP BY supplier_id),
    first_observed AS (
      SELECT ${KEY}, (min(valid_from) AT TIME ZONE ${LA})::date AS day,
             (array_agg(qty_on_hand ORDER BY valid_from))[1] AS qty_on_hand
        FROM fulfillment.inventory_history GROUP BY ${KEY}),
    activity AS (
      SELECT ${KEY}, activity_date, beginning_on_hand, ending_on_hand,
             lead(activity_date) OVER w AS next_day, row_number() OVER w AS n
        FROM fulfillment.inventory_activity
      WINDOW w AS (PARTITION BY ${KEY} ORDER BY activity_date)),
    spans AS (
      SELECT ${KEY}, activity_date AS from_day, coalesce(next_day - 1, (SELECT day FROM today)) AS to_day,
             ending_on_hand AS qty_on_hand
        FROM activity
      UNION ALL
      SELECT a.supplier_id, a.warehouse_code, a.sub_inventory_code, a.sku, c.first_day, a.activity_date - 1,
             a.beginning_on_hand
        FROM activity a JOIN coverage c ON c.supplier_id = a.supplier_id
       WHERE a.n = 1 AND a.activity_date > c.first_day
      UNION ALL
      SELECT f.supplier_id, f.warehouse_code, f.sub_inventory_code, f.sku, c.first_day, f.day - 1, f.qty_on_hand
        FROM first_observed f JOIN coverage c ON c.supplier_id = f.supplier_id
       WHERE NOT EXISTS (
         SELECT 1 FROM fulfillment.inventory_activity x
          WHERE x.supplier_id = f.supplier_id AND x.warehouse_code = f.warehouse_code
            AND x.sub_inventory_code = f.sub_inventory_code AND x.sku = f.sku))
    SELECT b.first_day + d.i AS day, h.supplier_id, h.warehouse_code, h.sub_inventory_code, h.sku,
           h.qty_on_hand, h.qty_available_to_sell, false AS is_reconstructed
      FROM fulfillment.inventory_history h
     CROSS JOIN LATERAL (
       SELECT (h.valid_from AT TIME ZONE ${LA})::date AS first_day,
              coalesce((h.valid_to AT TIME ZONE ${LA})::date - 1, (SELECT day FROM today)) AS last_day) b
     CROSS JOIN LATERAL generate_series(0, b.last_day - b.first_day) d(i)
    UNION ALL
    SELECT s.from_day + d.i, s.supplier_id, s.warehouse_code, s.sub_inventory_code, s.sku,
           s.qty_on_hand, NULL::integer, true
      FROM spans s
      LEFT JOIN first_observed f
        ON f.supplier_id = s.supplier_id AND f.warehouse_code = s.warehouse_code
       AND f.sub_inventory_code = s.sub_inventory_code AND f.sku = s.sku
     CROSS JOIN LATERAL generate_series(0, least(s.to_day, coalesce(f.day - 1, s.to_day)) - s.from_day) d(i)`);
