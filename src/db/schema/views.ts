import { sql } from 'drizzle-orm';
import { bigint, boolean, date, integer, text } from 'drizzle-orm/pg-core';
import { fulfillmentSchema, num, tz } from './columns.ts';

/**
 * Views for the questions BI users ask, in schema `fulfillment` beside the tables (a reader role
 * reads them as they are, their columns marked in src/db/pii/marks/views.ts; the tables only through
 * their masking views). Each declares its columns so the data dictionary and the comments can name
 * and type them; test/db/views.test.ts checks the declarations against the migrated catalog.
 * Ages and lags are measured against `now()` at query time. A migration that changes a column a
 * view reads must drop and recreate the view (Postgres refuses to alter it otherwise).
 */

/** Every shipment with its current status, its latest tracking scan and its order's detail. */
export const shipmentStatus = fulfillmentSchema
  .view('shipment_status', {
    containerId: text('container_id'),
    accountNumber: text('account_number'),
    orderNumber: text('order_number'),
    statusCode: text('status_code'),
    statusDescription: text('status_description'),
    shipDate: tz('ship_date'),
    carrierName: text('carrier_name'),
    trackingNumber: text('tracking_number'),
    trackingNumberUrl: text('tracking_number_url'),
    lastScanAt: tz('last_scan_at'),
    lastScanDescription: text('last_scan_description'),
    lastScanCity: text('last_scan_city'),
    lastScanStateOrProvince: text('last_scan_state_or_province'),
    orderStatusCode: text('order_status_code'),
    orderStatusName: text('order_status_name'),
    customerName: text('customer_name'),
    warehouseCode: text('warehouse_code'),
    warehouseName: text('warehouse_name'),
    orderCreatedAt: tz('order_created_at'),
    requestedShipDate: tz('requested_ship_date'),
    syncedAt: tz('synced_at'),
  })
  .as(sql`
    SELECT s.container_id, s.account_number, s.order_number, s.status_code, s.status_description,
           s.ship_date, s.carrier_name, s.tracking_number, s.tracking_number_url,
           scan.event_time AS last_scan_at, scan.description AS last_scan_description,
           scan.city AS last_scan_city, scan.state_or_province AS last_scan_state_or_province,
           o.order_status_code, o.order_status_name, o.customer_name, o.warehouse_code, o.warehouse_name,
           o.creation_date AS order_created_at, o.requested_ship_date, s.synced_at
      FROM fulfillment.shipments s
      LEFT JOIN fulfillment.orders o
        ON o.account_number = s.account_number AND o.order_number = s.order_number
      LEFT JOIN LATERAL (
        SELECT e.event_time, e.description, e.city, e.state_or_province
          FROM fulfillment.shipment_events e
         WHERE e.container_id = s.container_id
         ORDER BY e.event_time DESC NULLS LAST, e.event_key
         LIMIT 1) scan ON true`);

/** Returns not yet RESOLVED, with their age in days and their returned quantities. */
export const openReturns = fulfillmentSchema
  .view('open_returns', {
    shipReturnId: bigint('ship_return_id', { mode: 'number' }),
    accountNumber: text('account_number'),
    orderNumber: text('order_number'),
    customerName: text('customer_name'),
    processingStatusCode: text('processing_status_code'),
    processingStatusName: text('processing_status_name'),
    returnReasonCode: text('return_reason_code'),
    returnReasonName: text('return_reason_name'),
    shipFromWarehouseCode: text('ship_from_warehouse_code'),
    carrierCode: text('carrier_code'),
    trackingNumber: text('tracking_number'),
    shipDate: tz('ship_date'),
    returnDate: tz('return_date'),
    ageDays: integer('age_days'),
    lineCount: integer('line_count'),
    quantityReturned: integer('quantity_returned'),
    quantityDamaged: integer('quantity_damaged'),
    quantityMissing: integer('quantity_missing'),
    syncedAt: tz('synced_at'),
  })
  .as(sql`
    SELECT r.ship_return_id, r.account_number, r.order_number, r.customer_name,
           r.processing_status_code, r.processing_status_name, r.return_reason_code, r.return_reason_name,
           r.ship_from_warehouse_code, r.carrier_code, r.tracking_number, r.ship_date, r.return_date,
           floor(extract(epoch FROM now() - r.return_date) / 86400)::integer AS age_days,
           coalesce(l.line_count, 0) AS line_count,
           l.quantity_returned, l.quantity_damaged, l.quantity_missing, r.synced_at
      FROM fulfillment.returns r
      LEFT JOIN LATERAL (
        SELECT count(*)::integer AS line_count,
               sum(x.quantity_returned)::integer AS quantity_returned,
               sum(x.quantity_damaged)::integer AS quantity_damaged,
               sum(x.quantity_missing)::integer AS quantity_missing
          FROM fulfillment.return_lines x
         WHERE x.ship_return_id = r.ship_return_id) l ON true
     WHERE r.processing_status_code IS DISTINCT FROM 'RESOLVED'`);

/**
 * Current owned inventory with when its quantities last changed and its stock-outs, read from the
 * SCD2 history. A stock-out is a version whose qty_available_to_sell is 0 or less after one above 0,
 * the rule of the inventory.out_of_stock event; a row first seen at 0 has not run out in front of us.
 */
export const inventoryCurrent = fulfillmentSchema
  .view('inventory_current', {
    supplierId: text('supplier_id'),
    warehouseCode: text('warehouse_code'),
    warehouseName: text('warehouse_name'),
    subInventoryCode: text('sub_inventory_code'),
    subInventoryName: text('sub_inventory_name'),
    sku: text('sku'),
    description: text('description'),
    providerSku: text('provider_sku'),
    qtyOnHand: integer('qty_on_hand'),
    qtyOnOrders: integer('qty_on_orders'),
    qtyOnIns: integer('qty_on_ins'),
    qtyAvailableToSell: integer('qty_available_to_sell'),
    qtyAvailableToPromise: integer('qty_available_to_promise'),
    lastChangedAt: tz('last_changed_at'),
    isOutOfStock: boolean('is_out_of_stock'),
    outOfStockSince: tz('out_of_stock_since'),
    stockOuts30d: integer('stock_outs_30d'),
    vanishedAt: tz('vanished_at'),
    syncedAt: tz('synced_at'),
  })
  .as(sql`
    SELECT i.supplier_id, i.warehouse_code, i.warehouse_name, i.sub_inventory_code, i.sub_inventory_name,
           i.sku, i.description, i.provider_sku, i.qty_on_hand, i.qty_on_orders, i.qty_on_ins,
           i.qty_available_to_sell, i.qty_available_to_promise,
           h.last_changed_at,
           i.qty_available_to_sell <= 0 AS is_out_of_stock,
           CASE WHEN i.qty_available_to_sell <= 0 THEN coalesce(h.in_stock_until, h.first_seen_at) END
             AS out_of_stock_since,
           coalesce(h.stock_outs_30d, 0) AS stock_outs_30d,
           i.vanished_at, i.synced_at
      FROM fulfillment.inventory i
      LEFT JOIN LATERAL (
        SELECT max(v.valid_from) FILTER (WHERE v.valid_to IS NULL) AS last_changed_at,
               min(v.valid_from) AS first_seen_at,
               max(v.valid_to) FILTER (WHERE v.qty_available_to_sell > 0) AS in_stock_until,
               (count(*) FILTER (
                  WHERE v.qty_available_to_sell <= 0 AND v.before > 0
                    AND v.valid_from >= now() - interval '30 days'))::integer AS stock_outs_30d
          FROM (SELECT x.valid_from, x.valid_to, x.qty_available_to_sell,
                       lag(x.qty_available_to_sell) OVER (ORDER BY x.valid_from) AS before
                  FROM fulfillment.inventory_history x
                 WHERE x.supplier_id = i.supplier_id AND x.warehouse_code = i.warehouse_code
                   AND x.sub_inventory_code = i.sub_inventory_code AND x.sku = i.sku) v) h ON true`);

/** Invoices with what is still owed, their age and an aging bucket. */
export const invoiceBalances = fulfillmentSchema
  .view('invoice_balances', {
    invoiceNumber: text('invoice_number'),
    accountNumber: text('account_number'),
    customerName: text('customer_name'),
    invoiceType: text('invoice_type'),
    invoiceDate: tz('invoice_date'),
    orderCount: integer('order_count'),
    totalInvoiceAmount: num('total_invoice_amount'),
    paymentsReceived: num('payments_received'),
    balanceDue: num('balance_due'),
    isOpen: boolean('is_open'),
    ageDays: integer('age_days'),
    agingBucket: text('aging_bucket'),
    syncedAt: tz('synced_at'),
  })
  .as(sql`
    SELECT v.invoice_number, v.account_number, v.customer_name, v.invoice_type, v.invoice_date,
           v.order_count, v.total_invoice_amount, v.payments_received, v.balance_due, v.is_open, v.age_days,
           CASE WHEN NOT v.is_open THEN NULL
                WHEN v.age_days <= 30 THEN '0-30'
                WHEN v.age_days <= 60 THEN '31-60'
                WHEN v.age_days <= 90 THEN '61-90'
                ELSE '90+' END AS aging_bucket,
           v.synced_at
      FROM (SELECT n.*, coalesce(n.balance_due > 0, false) AS is_open,
                   floor(extract(epoch FROM now() - n.invoice_date) / 86400)::integer AS age_days
              FROM fulfillment.invoices n) v`);

/**
 * Shipments per Pacific ship day, warehouse and account. The warehouse comes from the order's
 * detail (a shipment record does not carry one); null until that detail is synced.
 */
export const shipmentsPerDay = fulfillmentSchema
  .view('shipments_per_day', {
    shipDay: date('ship_day', { mode: 'string' }),
    warehouseCode: text('warehouse_code'),
    warehouseName: text('warehouse_name'),
    accountNumber: text('account_number'),
    shipments: integer('shipments'),
    units: integer('units'),
    delivered: integer('delivered'),
    exceptions: integer('exceptions'),
    returned: integer('returned'),
  })
  .as(sql`
    SELECT (s.ship_date AT TIME ZONE 'America/Los_Angeles')::date AS ship_day,
           o.warehouse_code, max(o.warehouse_name) AS warehouse_name, s.account_number,
           count(*)::integer AS shipments,
           coalesce(sum(l.units), 0)::integer AS units,
           (count(*) FILTER (WHERE s.status_code = 'DELIVERED'))::integer AS delivered,
           (count(*) FILTER (WHERE s.status_code = 'EXCEPTION'))::integer AS exceptions,
           (count(*) FILTER (WHERE s.status_code = 'RETURNED'))::integer AS returned
      FROM fulfillment.shipments s
      LEFT JOIN fulfillment.orders o
        ON o.account_number = s.account_number AND o.order_number = s.order_number
      LEFT JOIN LATERAL (
        SELECT sum(x.quantity) AS units FROM fulfillment.shipment_lines x
         WHERE x.container_id = s.container_id) l ON true
     WHERE s.ship_date IS NOT NULL
     GROUP BY 1, o.warehouse_code, s.account_number`);

/**
 * Sync health per stream and scope, from the worker's own tables: readers get this view, never
 * schema `sync` itself (it holds the webhook secrets). The view runs with its owner's rights.
 */
export const syncHealth = fulfillmentSchema
  .view('sync_health', {
    stream: text('stream'),
    scope: text('scope'),
    lastSuccessAt: tz('last_success_at'),
    lagSeconds: bigint('lag_seconds', { mode: 'number' }),
    cursorPositionAt: tz('cursor_position_at'),
    lastRunAt: tz('last_run_at'),
    lastRunStatus: text('last_run_status'),
    lastError: text('last_error'),
    lastErrorAt: tz('last_error_at'),
    isFailing: boolean('is_failing'),
    runs24h: integer('runs_24h'),
    failedRuns24h: integer('failed_runs_24h'),
    rows24h: bigint('rows_24h', { mode: 'number' }),
    rejected24h: bigint('rejected_24h', { mode: 'number' }),
    events24h: bigint('events_24h', { mode: 'number' }),
    apiCalls24h: bigint('api_calls_24h', { mode: 'number' }),
  })
  .as(sql`
    WITH k AS (
      SELECT stream, scope FROM sync.cursors
      UNION
      SELECT DISTINCT stream, scope FROM sync.runs)
    SELECT k.stream, k.scope, c.last_success_at,
           floor(extract(epoch FROM now() - c.last_success_at))::bigint AS lag_seconds,
           c.position_at AS cursor_position_at,
           CASE WHEN c.last_polled_at > coalesce(lr.finished_at, '-infinity') THEN c.last_polled_at
                ELSE lr.started_at END AS last_run_at,
           CASE WHEN c.last_polled_at > coalesce(lr.finished_at, '-infinity') THEN 'succeeded'
                ELSE lr.status END AS last_run_status,
           f.error AS last_error, f.finished_at AS last_error_at,
           f.finished_at IS NOT NULL AND (c.last_success_at IS NULL OR f.finished_at > c.last_success_at)
             AS is_failing,
           coalesce(d.runs, 0) AS runs_24h, coalesce(d.failed_runs, 0) AS failed_runs_24h,
           coalesce(d.rows_written, 0) AS rows_24h, coalesce(d.rejected, 0) AS rejected_24h,
           coalesce(d.events, 0) AS events_24h, coalesce(d.api_calls, 0) AS api_calls_24h
      FROM k
      LEFT JOIN sync.cursors c ON c.stream = k.stream AND c.scope = k.scope
      LEFT JOIN LATERAL (
        SELECT r.started_at, r.finished_at, r.status FROM sync.runs r
         WHERE r.stream = k.stream AND r.scope = k.scope
         ORDER BY r.started_at DESC LIMIT 1) lr ON true
      LEFT JOIN LATERAL (
        SELECT r.error, r.finished_at FROM sync.runs r
         WHERE r.stream = k.stream AND r.scope = k.scope AND r.status = 'failed'
         ORDER BY r.started_at DESC LIMIT 1) f ON true
      LEFT JOIN LATERAL (
        SELECT count(*)::integer AS runs,
               (count(*) FILTER (WHERE r.status = 'failed'))::integer AS failed_runs,
               sum(r.inserted + r.updated)::bigint AS rows_written,
               sum(r.rejected)::bigint AS rejected,
               sum(r.events)::bigint AS events,
               sum(r.api_calls)::bigint AS api_calls
          FROM sync.runs r
         WHERE r.stream = k.stream AND r.scope = k.scope
           AND r.started_at > now() - interval '24 hours') d ON true`);
