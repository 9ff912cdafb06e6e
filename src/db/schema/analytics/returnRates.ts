import { sql } from 'drizzle-orm';
import { integer, text } from 'drizzle-orm/pg-core';
import { analyticsSchema, num } from '../columns.ts';

/**
 * Return rates: units returned over units shipped, since the first synced record, per SKU, per
 * return reason and per warehouse of each account. Materialized: they sum every shipment line and
 * return line ever synced. A null SKU, reason or warehouse is grouped under '' (as in keys).
 */

const SHIPPED_PER_SKU = sql`
  SELECT s.account_number, coalesce(l.sku, '') AS sku, sum(l.quantity) AS units,
         count(DISTINCT s.container_id) AS shipments
    FROM fulfillment.shipment_lines l JOIN fulfillment.shipments s ON s.container_id = l.container_id
   GROUP BY 1, 2`;

const RETURNED_PER_SKU = sql`
  SELECT r.account_number, coalesce(l.sku, '') AS sku, sum(l.quantity_returned) AS units,
         sum(l.quantity_damaged) AS damaged, count(DISTINCT r.ship_return_id) AS returns
    FROM fulfillment.return_lines l JOIN fulfillment.returns r ON r.ship_return_id = l.ship_return_id
   GROUP BY 1, 2`;

export const returnRateBySku = analyticsSchema
  .materializedView('return_rate_by_sku', {
    accountNumber: text('account_number'),
    sku: text('sku'),
    shipments: integer('shipments'),
    unitsShipped: integer('units_shipped'),
    returns: integer('returns'),
    unitsReturned: integer('units_returned'),
    unitsDamaged: integer('units_damaged'),
    returnRate: num('return_rate'),
  })
  .as(sql`
    SELECT coalesce(s.account_number, r.account_number) AS account_number, coalesce(s.sku, r.sku) AS sku,
           coalesce(s.shipments, 0)::integer AS shipments, coalesce(s.units, 0)::integer AS units_shipped,
           coalesce(r.returns, 0)::integer AS returns, coalesce(r.units, 0)::integer AS units_returned,
           coalesce(r.damaged, 0)::integer AS units_damaged,
           round(coalesce(r.units, 0)::numeric / nullif(s.units, 0), 4) AS return_rate
      FROM (${SHIPPED_PER_SKU}) s
      FULL JOIN (${RETURNED_PER_SKU}) r ON r.account_number = s.account_number AND r.sku = s.sku`);

export const returnRateByReason = analyticsSchema
  .materializedView('return_rate_by_reason', {
    accountNumber: text('account_number'),
    returnReasonCode: text('return_reason_code'),
    returnReasonName: text('return_reason_name'),
    returns: integer('returns'),
    unitsReturned: integer('units_returned'),
    unitsDamaged: integer('units_damaged'),
    unitsShipped: integer('units_shipped'),
    returnRate: num('return_rate'),
    shareOfReturnedUnits: num('share_of_returned_units'),
  })
  .as(sql`
    SELECT r.account_number, r.return_reason_code, r.return_reason_name, r.returns, r.units_returned,
           r.units_damaged, coalesce(s.units, 0)::integer AS units_shipped,
           round(r.units_returned::numeric / nullif(s.units, 0), 4) AS return_rate,
           round(r.units_returned::numeric / nullif(sum(r.units_returned) OVER (PARTITION BY r.account_number), 0), 4)
             AS share_of_returned_units
      FROM (SELECT x.account_number, coalesce(x.return_reason_code, '') AS return_reason_code,
                   max(x.return_reason_name) AS return_reason_name,
                   count(DISTINCT x.ship_return_id)::integer AS returns,
                   coalesce(sum(l.quantity_returned), 0)::integer AS units_returned,
                   coalesce(sum(l.quantity_damaged), 0)::integer AS units_damaged
              FROM fulfillment.returns x
              LEFT JOIN fulfillment.return_lines l ON l.ship_return_id = x.ship_return_id
             GROUP BY 1, 2) r
      LEFT JOIN (SELECT account_number, sum(units) AS units FROM (${SHIPPED_PER_SKU}) t GROUP BY 1) s
        ON s.account_number = r.account_number`);

/** The query of analytics.return_rate_by_warehouse (it reads analytics.shipment_facts). */
export const RETURN_RATE_BY_WAREHOUSE_QUERY = `
    SELECT coalesce(s.account_number, r.account_number) AS account_number,
           coalesce(s.warehouse_code, r.warehouse_code) AS warehouse_code,
           coalesce(s.units, 0)::integer AS units_shipped, coalesce(r.returns, 0)::integer AS returns,
           coalesce(r.units, 0)::integer AS units_returned, coalesce(r.damaged, 0)::integer AS units_damaged,
           round(coalesce(r.units, 0)::numeric / nullif(s.units, 0), 4) AS return_rate
      FROM (SELECT f.account_number, coalesce(f.warehouse_code, '') AS warehouse_code, sum(f.units) AS units
              FROM analytics.shipment_facts f GROUP BY 1, 2) s
      FULL JOIN (
        SELECT x.account_number, coalesce(x.ship_from_warehouse_code, '') AS warehouse_code,
               count(DISTINCT x.ship_return_id) AS returns, coalesce(sum(l.quantity_returned), 0) AS units,
               coalesce(sum(l.quantity_damaged), 0) AS damaged
          FROM fulfillment.returns x
          LEFT JOIN fulfillment.return_lines l ON l.ship_return_id = x.ship_return_id
         GROUP BY 1, 2) r
        ON r.account_number = s.account_number AND r.warehouse_code = s.warehouse_code`;

/**
 * Declared `existing`: drizzle-kit creates views in name order, which would put this one before
 * analytics.shipment_facts, which it reads; migrations/0018_analytics_views.sql creates it from
 * the query above (test/analytics/refresh.test.ts checks that the two agree).
 */
export const returnRateByWarehouse = analyticsSchema
  .materializedView('return_rate_by_warehouse', {
    accountNumber: text('account_number'),
    warehouseCode: text('warehouse_code'),
    unitsShipped: integer('units_shipped'),
    returns: integer('returns'),
    unitsReturned: integer('units_returned'),
    unitsDamaged: integer('units_damaged'),
    returnRate: num('return_rate'),
  })
  .existing();
