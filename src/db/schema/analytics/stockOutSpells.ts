import { sql } from 'drizzle-orm';
import { boolean, text } from 'drizzle-orm/pg-core';
import { analyticsSchema, num, tz } from '../columns.ts';

/**
 * Stock-out spells from fulfillment.inventory_history: from the version where qty_available_to_sell
 * fell to 0 or less after one above 0, until the next version above 0 (the rule of the
 * inventory.out_of_stock event). A row first seen at 0 starts no spell: when it ran out is unknown,
 * and a fresh install must not report stock-outs that did not happen in front of it.
 */
export const stockOutSpells = analyticsSchema
  .materializedView('stock_out_spells', {
    supplierId: text('supplier_id'),
    warehouseCode: text('warehouse_code'),
    subInventoryCode: text('sub_inventory_code'),
    sku: text('sku'),
    startedAt: tz('started_at'),
    endedAt: tz('ended_at'),
    isOngoing: boolean('is_ongoing'),
    durationHours: num('duration_hours'),
  })
  .as(sql`
    WITH v AS (
      SELECT supplier_id, warehouse_code, sub_inventory_code, sku, valid_from, valid_to,
             coalesce(qty_available_to_sell <= 0, false) AS is_out,
             lag(coalesce(qty_available_to_sell <= 0, false)) OVER w AS was_out
        FROM fulfillment.inventory_history
      WINDOW w AS (PARTITION BY supplier_id, warehouse_code, sub_inventory_code, sku ORDER BY valid_from)),
    runs AS (
      SELECT *, count(*) FILTER (WHERE was_out IS DISTINCT FROM is_out) OVER (
                  PARTITION BY supplier_id, warehouse_code, sub_inventory_code, sku ORDER BY valid_from) AS run
        FROM v),
    spells AS (
      SELECT supplier_id, warehouse_code, sub_inventory_code, sku, min(valid_from) AS started_at,
             (array_agg(valid_to ORDER BY valid_from DESC))[1] AS ended_at,
             bool_or(was_out IS NULL) AS first_seen_out
        FROM runs WHERE is_out
       GROUP BY supplier_id, warehouse_code, sub_inventory_code, sku, run)
    SELECT supplier_id, warehouse_code, sub_inventory_code, sku, started_at, ended_at,
           ended_at IS NULL AS is_ongoing,
           round((extract(epoch FROM ended_at - started_at) / 3600)::numeric, 2) AS duration_hours
      FROM spells WHERE NOT first_seen_out`);
