/**
 * Generates `days` of warehouse data for `pairs` supplier+account pairs directly in Postgres (one
 * INSERT ... SELECT per table, no API): the shape the streams store, at a volume like a busy
 * winery's. Deterministic: every value is arithmetic on the generated indexes.
 *
 * Per pair and day: 30 shipments (1-3 lines, 4 scans; 1 in 50 an exception, 1 in 97 returned to
 * sender), their orders and ship-to addresses, a return for 1 in 33; 2 INs (3 lines), 2 invoices.
 * Inventory: 20 SKUs x 3 warehouses x 2 sub-inventories (FG, QA) per supplier; the worker was
 * installed 90 days after the first day (history versions every 6 hours for FG, weekly for QA from
 * then on), inventory activity covers every day (reconstruction reads the first 90).
 */

export interface GenerateOptions {
  pairs: number;
  days: number;
}

/** Days of activity before the simulated install: reconstructed by analytics.daily_inventory. */
export const RECONSTRUCTED_DAYS = 90;
const SHIPMENTS_PER_DAY = 30;
const SKUS = 20;

/** The statements that fill an empty migrated warehouse, with a label each (for progress lines). */
export function generateStatements({ pairs, days }: GenerateOptions): Array<[string, string]> {
  const start = `(date_trunc('day', now()) - interval '${days} days')`;
  const perPair = days * SHIPMENTS_PER_DAY;
  const pair = `generate_series(1, ${pairs}) a`;
  const account = `'ACC' || lpad(a::text, 3, '0')`;
  const supplier = `'SUP' || lpad(a::text, 3, '0')`;
  const sku = (s: string) => `a || 'W' || lpad((${s})::text, 3, '0')`;
  const installedAt = `${start} + interval '${RECONSTRUCTED_DAYS} days'`;
  return [
    [
      'orders',
      `INSERT INTO fulfillment.orders (account_number, order_number, customer_name, warehouse_code, warehouse_name,
         received_date, creation_date, shipped_date, requested_service_level, planned_service_level,
         order_status_code, sla_status_code, sla_date, is_onsite_purchase, is_line_haul, is_editable,
         is_cancellable, is_back_ordered, has_inventory_hold)
       SELECT ${account}, 'SO' || a || '-' || n, 'Winery ' || a, w.code, w.code || ' warehouse',
              t - interval '5 hours', t - interval '5 hours', t, 'GROUND', 'GROUND', 'SHIPPED', 'MET',
              t + interval '2 days', false, false, false, false, false, false
         FROM ${pair}, generate_series(0, ${perPair - 1}) n,
              LATERAL (SELECT ${start} + n * interval '${(24 * 60) / SHIPMENTS_PER_DAY} minutes' AS t) x,
              LATERAL (SELECT (ARRAY['PSO', 'GLW', 'DAL'])[1 + (n + a) % 3] AS code) w`,
    ],
    [
      'order_addresses',
      `INSERT INTO fulfillment.order_addresses (account_number, order_number, role, position, is_residential_address,
         city, state_code, postal_code, country_code)
       SELECT account_number, order_number, 'ship_to', 0, true,
              (ARRAY['Napa', 'Dallas', 'Portland', 'Reno'])[1 + length(order_number) % 4], 'CA', '94558', 'US'
         FROM fulfillment.orders`,
    ],
    [
      'shipments',
      `INSERT INTO fulfillment.shipments (container_id, account_number, order_number, ship_date, carrier_name,
         tracking_number, status_code)
       SELECT 'C' || substr(order_number, 3), account_number, order_number, shipped_date,
              (ARRAY['CarrierA', 'CarrierB', 'CarrierC'])[1 + n % 3], '1Z' || n,
              CASE WHEN n % 50 = 0 THEN 'EXCEPTION' WHEN n % 97 = 0 THEN 'RETURNED'
                   WHEN shipped_date > now() - interval '2 days' THEN 'IN_TRANSIT' ELSE 'DELIVERED' END
         FROM (SELECT o.*, split_part(order_number, '-', 2)::int AS n FROM fulfillment.orders o) o`,
    ],
    [
      'shipment_lines',
      `INSERT INTO fulfillment.shipment_lines (container_id, line_number, sku, quantity)
       SELECT s.container_id, l, ${sku(`1 + (n + l) % ${SKUS}`)}, 1 + (n + l) % 6
         FROM (SELECT container_id, split_part(container_id, '-', 2)::int AS n,
                      substr(split_part(container_id, '-', 1), 2)::int AS a
                 FROM fulfillment.shipments) s,
              generate_series(1, 1 + s.n % 3) l`,
    ],
    [
      'shipment_events',
      `INSERT INTO fulfillment.shipment_events (container_id, event_key, event_time, city, state_or_province, description)
       SELECT s.container_id, md5(s.container_id || k), s.ship_date + interval '2 hours' + k * interval '11 hours',
              'Hub ' || k, 'CA',
              CASE WHEN k < 3 THEN 'In transit'
                   WHEN s.status_code = 'EXCEPTION' THEN 'Delivery exception: recipient not available'
                   WHEN s.status_code = 'RETURNED' THEN 'Returned to sender' ELSE 'Delivered' END
         FROM fulfillment.shipments s, generate_series(0, 3) k
        WHERE s.status_code <> 'IN_TRANSIT' OR k < 2`,
    ],
    [
      'returns',
      `INSERT INTO fulfillment.returns (ship_return_id, account_number, order_number, ship_from_warehouse_code,
         return_reason_code, return_reason_name, processing_status_code, ship_date, return_date)
       SELECT a::bigint * 10000000 + n, o.account_number, o.order_number, o.warehouse_code,
              (ARRAY['DAMAGED', 'REFUSED', 'WRONG_ITEM', 'NOT_WANTED'])[1 + n % 4],
              (ARRAY['Damaged', 'Refused', 'Wrong item', 'Not wanted'])[1 + n % 4],
              CASE WHEN o.shipped_date > now() - interval '10 days' THEN 'NEW' ELSE 'RESOLVED' END,
              o.shipped_date, o.shipped_date + interval '5 days'
         FROM (SELECT o.*, split_part(order_number, '-', 2)::int AS n,
                      substr(split_part(order_number, '-', 1), 3)::int AS a
                 FROM fulfillment.orders o) o
        WHERE o.n % 33 = 0`,
    ],
    [
      'return_lines',
      `INSERT INTO fulfillment.return_lines (ship_return_id, line_number, component_number, sku, quantity_returned,
         quantity_damaged)
       SELECT r.ship_return_id, 1, 0, ${sku(`1 + (n + 1) % ${SKUS}`)}, 1 + n % 2, n % 2
         FROM (SELECT ship_return_id, ship_return_id / 10000000 AS a, ship_return_id % 10000000 AS n
                 FROM fulfillment.returns) r`,
    ],
    [
      'inventory_history',
      `INSERT INTO fulfillment.inventory_history (supplier_id, warehouse_code, sub_inventory_code, sku, valid_from,
         valid_to, qty_on_hand, qty_on_orders, qty_on_ins, qty_available_to_sell, qty_available_to_promise)
       SELECT ${supplier}, w, sub, ${sku('s')}, f,
              CASE WHEN k < last THEN f + step END,
              q, 3, 0, CASE WHEN sub = 'FG' THEN greatest(q - 3, 0) ELSE 0 END, 0
         FROM ${pair}, unnest(ARRAY['PSO', 'GLW', 'DAL']) w, unnest(ARRAY['FG', 'QA']) sub,
              generate_series(1, ${SKUS}) s,
              LATERAL (SELECT CASE WHEN sub = 'FG' THEN interval '6 hours' ELSE interval '7 days' END AS step) st,
              LATERAL (SELECT floor(extract(epoch FROM now() - (${installedAt})) / extract(epoch FROM st.step))::int AS last) l,
              generate_series(0, l.last) k,
              LATERAL (SELECT ${installedAt} + k * st.step AS f,
                              CASE WHEN (k * 7 + s * 13 + a) % 53 < 2 THEN 0 ELSE 4 + (k * 5 + s + a) % 90 END AS q) v`,
    ],
    [
      'inventory',
      `INSERT INTO fulfillment.inventory (supplier_id, warehouse_code, sub_inventory_code, sku, qty_on_hand,
         qty_on_orders, qty_on_ins, qty_available_to_sell, qty_available_to_promise)
       SELECT supplier_id, warehouse_code, sub_inventory_code, sku, qty_on_hand, qty_on_orders, qty_on_ins,
              qty_available_to_sell, qty_available_to_promise
         FROM fulfillment.inventory_history WHERE valid_to IS NULL`,
    ],
    [
      'inventory_activity',
      `INSERT INTO fulfillment.inventory_activity (supplier_id, activity_date, warehouse_code, sub_inventory_code, sku,
         beginning_on_hand, ending_on_hand, qty_shipped, qty_received)
       SELECT ${supplier}, (${start} + d * interval '1 day')::date, w, sub, ${sku('s')},
              4 + (d * 5 + s + a) % 90, 4 + ((d + 1) * 5 + s + a) % 90, 3, 3
         FROM ${pair}, unnest(ARRAY['PSO', 'GLW', 'DAL']) w, unnest(ARRAY['FG', 'QA']) sub,
              generate_series(1, ${SKUS}) s, generate_series(0, ${days}) d
        WHERE sub = 'FG' OR d % 7 = 0`,
    ],
    [
      'transfers_in',
      `INSERT INTO fulfillment.transfers_in (supplier_id, order_number, warehouse_code, warehouse_name, status_code,
         submitted_date, expected_date, creation_date)
       SELECT ${supplier}, 'IN-' || a || '-' || n, (ARRAY['PSO', 'GLW', 'DAL'])[1 + n % 3], 'Warehouse',
              CASE WHEN t < now() - interval '10 days' THEN 'CLOSED' WHEN n % 2 = 0 THEN 'SUBMITTED' ELSE 'PROCESSING' END,
              t, t + interval '5 days', t - interval '1 hour'
         FROM ${pair}, generate_series(0, ${days * 2 - 1}) n,
              LATERAL (SELECT ${start} + n * interval '12 hours' AS t) x`,
    ],
    [
      'transfer_in_lines',
      `INSERT INTO fulfillment.transfer_in_lines (supplier_id, order_number, line_number, sku, qty_ordered, qty_received)
       SELECT i.supplier_id, i.order_number, l, 'SKU' || l, 24, CASE WHEN i.status_code = 'CLOSED' THEN 24 ELSE 6 END
         FROM fulfillment.transfers_in i, generate_series(1, 3) l`,
    ],
    [
      'invoices',
      `INSERT INTO fulfillment.invoices (invoice_number, account_number, customer_name, invoice_type, invoice_date,
         total_invoice_amount, payments_received, balance_due)
       SELECT 'INV-' || a || '-' || n, ${account}, 'Winery ' || a, 'DIRECT', t, 100 + n % 50,
              CASE WHEN n % 10 = 0 THEN 0 ELSE 100 + n % 50 END, CASE WHEN n % 10 = 0 THEN 100 + n % 50 ELSE 0 END
         FROM ${pair}, generate_series(0, ${days * 2 - 1}) n,
              LATERAL (SELECT ${start} + n * interval '12 hours' AS t) x`,
    ],
  ];
}
