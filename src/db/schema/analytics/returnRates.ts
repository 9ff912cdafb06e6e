import { sql } from 'drizzle-orm';
import { date, integer, text } from 'drizzle-orm/pg-core';
import { analyticsSchema, num } from '../columns.ts';

/**
 * Return rates: units returned over units shipped, since the first synced record per SKU, return
 * reason and warehouse of each account, and per month. Plain views: the shipped side sums
 * analytics.shipped_units_monthly (kept by the worker, a row per account, warehouse, SKU and
 * month), the returned side reads the synced returns, which are few. A null SKU, reason or
 * warehouse is grouped under '' (as in keys).
 */

const SHIPPED_PER_SKU = sql`
  SELECT account_number, sku, sum(units) AS units, sum(shipments) AS shipments
    FROM analytics.shipped_units_monthly GROUP BY 1, 2`;

const RETURNED_PER_SKU = sql`
  SELECT r.account_number, coalesce(l.sku, '') AS sku, sum(l.quantity_returned) AS units,
         sum(l.quantity_damaged) AS damaged, count(DISTINCT r.ship_return_id) AS returns
    FROM fulfillment.return_lines l JOIN fulfillment.returns r ON r.ship_return_id = l.ship_return_id
   GROUP BY 1, 2`;

/** Returns and returned units per account, `grouping` (an expression over returns x) and lines. */
const returnedPer = (grouping: string, where?: string) =>
  sql.raw(`
  SELECT x.account_number, ${grouping} AS grouping,
         max(x.return_reason_name) AS return_reason_name,
         count(DISTINCT x.ship_return_id)::integer AS returns,
         coalesce(sum(l.quantity_returned), 0)::integer AS units_returned,
         coalesce(sum(l.quantity_damaged), 0)::integer AS units_damaged
    FROM fulfillment.returns x
    LEFT JOIN fulfillment.return_lines l ON l.ship_return_id = x.ship_return_id${
      where
        ? `
   WHERE ${where}`
        : ''
    }
   GROUP BY 1, 2`);

/** The measures a return-rate view ends with (by SKU, warehouse and month). */
const rateColumns = () => ({
  unitsShipped: integer('units_shipped'),
  returns: integer('returns'),
  unitsReturned: integer('units_returned'),
  unitsDamaged: integer('units_damaged'),
  returnRate: num('return_rate'),
});

/** Those measures over the shipped side `s` and a `returnedPer` side `r` (by warehouse and month). */
const RATE_MEASURES =
  sql.raw(`coalesce(s.units, 0)::integer AS units_shipped, coalesce(r.returns, 0)::integer AS returns,
           coalesce(r.units_returned, 0)::integer AS units_returned,
           coalesce(r.units_damaged, 0)::integer AS units_damaged,
           round(coalesce(r.units_returned, 0)::numeric / nullif(s.units, 0), 4) AS return_rate`);

export const returnRateBySku = analyticsSchema
  .view('return_rate_by_sku', {
    accountNumber: text('account_number'),
    sku: text('sku'),
    shipments: integer('shipments'),
    ...rateColumns(),
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
  .view('return_rate_by_reason', {
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
    SELECT r.account_number, r.grouping AS return_reason_code, r.return_reason_name, r.returns,
           r.units_returned, r.units_damaged, coalesce(s.units, 0)::integer AS units_shipped,
           round(r.units_returned::numeric / nullif(s.units, 0), 4) AS return_rate,
           round(r.units_returned::numeric / nullif(sum(r.units_returned) OVER (PARTITION BY r.account_number), 0), 4)
             AS share_of_returned_units
      FROM (${returnedPer("coalesce(x.return_reason_code, '')")}) r
      LEFT JOIN (SELECT account_number, sum(units) AS units FROM analytics.shipped_units_monthly GROUP BY 1) s
        ON s.account_number = r.account_number`);

export const returnRateByWarehouse = analyticsSchema
  .view('return_rate_by_warehouse', {
    accountNumber: text('account_number'),
    warehouseCode: text('warehouse_code'),
    ...rateColumns(),
  })
  .as(sql`
    SELECT coalesce(s.account_number, r.account_number) AS account_number,
           coalesce(s.warehouse_code, r.grouping) AS warehouse_code,
           ${RATE_MEASURES}
      FROM (SELECT account_number, warehouse_code, sum(units) AS units
              FROM analytics.shipped_units_monthly GROUP BY 1, 2) s
      FULL JOIN (${returnedPer("coalesce(x.ship_from_warehouse_code, '')")}) r
        ON r.account_number = s.account_number AND r.grouping = s.warehouse_code`);

/**
 * Per account and Pacific month: units shipped that month against units returned that month (by
 * the return's return date; a return without one is not counted).
 */
export const returnRateMonthly = analyticsSchema
  .view('return_rate_monthly', {
    accountNumber: text('account_number'),
    month: date('month', { mode: 'string' }),
    ...rateColumns(),
  })
  .as(sql`
    SELECT coalesce(s.account_number, r.account_number) AS account_number, coalesce(s.month, r.grouping) AS month,
           ${RATE_MEASURES}
      FROM (SELECT account_number, month, sum(units) AS units FROM analytics.shipped_units_monthly GROUP BY 1, 2) s
      FULL JOIN (${returnedPer(
        "date_trunc('month', x.return_date AT TIME ZONE 'America/Los_Angeles')::date",
        'x.return_date IS NOT NULL',
      )}) r
        ON r.account_number = s.account_number AND r.grouping = s.month`);
