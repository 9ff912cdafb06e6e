import { sql } from 'drizzle-orm';
import { boolean, integer, text } from 'drizzle-orm/pg-core';
import { analyticsSchema, num } from '../columns.ts';

/** Complete Pacific days the shipping rate is measured over. */
export const COVER_WINDOW_DAYS = 28;

/**
 * Stock now and how long it lasts, per supplier, warehouse and SKU (summed over sub-inventories):
 * on hand and available to sell from fulfillment.inventory (current state; a row the owned listing
 * no longer names is left out), against the units
 * shipped per day over the last complete days, from the warehouse's own activity report
 * (fulfillment.inventory_activity, read back over the history at install). A plain view: it runs
 * with the current stock and today's date.
 */
export const daysOfCover = analyticsSchema
  .view('days_of_cover', {
    supplierId: text('supplier_id'),
    warehouseCode: text('warehouse_code'),
    sku: text('sku'),
    qtyOnHand: integer('qty_on_hand'),
    qtyAvailableToSell: integer('qty_available_to_sell'),
    isOutOfStock: boolean('is_out_of_stock'),
    daysMeasured: integer('days_measured'),
    unitsShipped: integer('units_shipped'),
    avgDailyUnitsShipped: num('avg_daily_units_shipped'),
    daysOfCover: num('days_of_cover'),
  })
  .as(
    sql.raw(`
    WITH today AS (SELECT (now() AT TIME ZONE 'America/Los_Angeles')::date AS day),
    stock AS MATERIALIZED (
      SELECT supplier_id, warehouse_code, sku, sum(qty_on_hand)::integer AS qty_on_hand,
             sum(qty_available_to_sell)::integer AS qty_available_to_sell
        FROM fulfillment.inventory WHERE vanished_at IS NULL GROUP BY 1, 2, 3),
    -- Materialized: inlined, its subquery would run once per output row.
    measured AS MATERIALIZED (
      SELECT s.supplier_id,
             greatest(least(${COVER_WINDOW_DAYS}, t.day - (SELECT min(a.activity_date) FROM fulfillment.inventory_activity a
                                                WHERE a.supplier_id = s.supplier_id)), 0) AS days
        FROM (SELECT DISTINCT supplier_id FROM stock) s CROSS JOIN today t),
    shipped AS (
      SELECT a.supplier_id, a.warehouse_code, a.sku, sum(a.qty_shipped) AS units
        FROM fulfillment.inventory_activity a, today t
       WHERE a.activity_date >= t.day - ${COVER_WINDOW_DAYS} AND a.activity_date < t.day
       GROUP BY 1, 2, 3)
    SELECT s.supplier_id, s.warehouse_code, s.sku, s.qty_on_hand, s.qty_available_to_sell,
           s.qty_available_to_sell <= 0 AS is_out_of_stock,
           m.days AS days_measured, coalesce(x.units, 0)::integer AS units_shipped,
           round(coalesce(x.units, 0)::numeric / nullif(m.days, 0), 2) AS avg_daily_units_shipped,
           round(s.qty_on_hand * m.days / nullif(x.units, 0)::numeric, 1) AS days_of_cover
      FROM stock s
      JOIN measured m ON m.supplier_id = s.supplier_id
      LEFT JOIN shipped x
        ON x.supplier_id = s.supplier_id AND x.warehouse_code = s.warehouse_code AND x.sku = s.sku`),
  );
