/**
 * An hour of a busy deployment's writes at `pairs` supplier+account pairs, as the syncs would make
 * them (the triggers queue what they touch): per pair per day 30 new shipments with their orders,
 * ship-to addresses, lines and a first scan; the hour's deliveries of twice as many earlier
 * shipments (a scan, a status, their orders' details fetched again); holds on some new orders; a
 * return a day per 8 pairs; and a new
 * inventory version for a sixth of the finished-goods rows (each moves every 6 hours), with the
 * current row and today's activity. Works on what bench/analytics/generate.ts made.
 */

export interface HourOptions {
  pairs: number;
  /** Tells apart the records of several hours on one database (order numbers HO-.., containers HC-..). */
  tag?: string;
}

/** The statements of the hour, labelled. */
export function hourOfChangesStatements({ pairs, tag = 'H' }: HourOptions): Array<[string, string]> {
  const shipments = Math.round((pairs * 30) / 24);
  const deliveries = 2 * shipments;
  const pair = (i: string) => `(1 + ${i} % ${pairs})`;
  const changedKeys = `SELECT supplier_id, warehouse_code, sub_inventory_code, sku, valid_from
                         FROM fulfillment.inventory_history
                        WHERE valid_to IS NULL AND sub_inventory_code = 'FG'
                        ORDER BY valid_from, sku, warehouse_code LIMIT ${pairs * 10}`;
  return [
    [
      'orders',
      `INSERT INTO fulfillment.orders (account_number, order_number, warehouse_code, warehouse_name, received_date,
         creation_date, shipped_date, requested_service_level, planned_service_level, order_status_code,
         sla_status_code, sla_date, is_onsite_purchase, is_line_haul, is_editable, is_cancellable, is_back_ordered,
         has_inventory_hold)
       SELECT 'ACC' || lpad(${pair('i')}::text, 3, '0'), '${tag}O-' || i, (ARRAY['PSO', 'GLW', 'DAL'])[1 + i % 3], 'Warehouse',
              t - interval '4 hours', t - interval '4 hours', t, 'GROUND', 'GROUND', 'SHIPPED', 'MET',
              t + interval '2 hours', false, false, false, false, false, false
         FROM generate_series(1, ${shipments}) i,
              LATERAL (SELECT now() - (i * interval '1 hour') / ${shipments} AS t) x`,
    ],
    [
      'order_addresses',
      `INSERT INTO fulfillment.order_addresses (account_number, order_number, role, position, is_residential_address,
         city, state_code, postal_code, country_code)
       SELECT account_number, order_number, 'ship_to', 0, true, 'Napa', 'CA', '94558', 'US'
         FROM fulfillment.orders WHERE order_number LIKE '${tag}O-%'`,
    ],
    [
      'order_holds',
      `INSERT INTO fulfillment.order_holds (account_number, order_number, hold_key, hold_name, creation_date,
         is_directly_releasable)
       SELECT account_number, order_number, 'age', 'AGE_VERIFY', received_date, false
         FROM fulfillment.orders WHERE order_number LIKE '${tag}O-%' AND length(order_number) % 7 = 0`,
    ],
    [
      'shipments',
      `INSERT INTO fulfillment.shipments (container_id, account_number, order_number, ship_date, carrier_name,
         tracking_number, status_code)
       SELECT '${tag}C-' || substr(order_number, 4), account_number, order_number, shipped_date,
              (ARRAY['CarrierA', 'CarrierB', 'CarrierC'])[1 + length(order_number) % 3], '1Z' || order_number,
              'IN_TRANSIT'
         FROM fulfillment.orders WHERE order_number LIKE '${tag}O-%'`,
    ],
    [
      'shipment_lines',
      `INSERT INTO fulfillment.shipment_lines (container_id, line_number, sku, quantity)
       SELECT s.container_id, l, substr(s.account_number, 4)::int || 'W' || lpad((1 + (n + l) % 20)::text, 3, '0'),
              1 + (n + l) % 6
         FROM (SELECT container_id, account_number, substr(container_id, 4)::int AS n
                 FROM fulfillment.shipments WHERE container_id LIKE '${tag}C-%') s,
              generate_series(1, 2) l`,
    ],
    [
      'shipment_events (picked up)',
      `INSERT INTO fulfillment.shipment_events (container_id, event_key, event_time, city, state_or_province, description)
       SELECT container_id, md5(container_id || 'pickup'), ship_date + interval '10 minutes', 'Napa', 'CA', 'Picked up'
         FROM fulfillment.shipments WHERE container_id LIKE '${tag}C-%'`,
    ],
    [
      'shipment_events (delivered)',
      `INSERT INTO fulfillment.shipment_events (container_id, event_key, event_time, city, state_or_province, description)
       SELECT container_id, md5(container_id || 'delivered-${tag}'), now() - interval '5 minutes', 'Reno', 'NV',
              'Delivered'
         FROM (SELECT container_id FROM fulfillment.shipments WHERE status_code = 'IN_TRANSIT'
                 AND container_id NOT LIKE '${tag}C-%' ORDER BY ship_date LIMIT ${deliveries}) s`,
    ],
    [
      'shipments (delivered)',
      `UPDATE fulfillment.shipments SET status_code = 'DELIVERED'
        WHERE container_id IN (SELECT container_id FROM fulfillment.shipments WHERE status_code = 'IN_TRANSIT'
                                 AND container_id NOT LIKE '${tag}C-%' ORDER BY ship_date LIMIT ${deliveries})`,
    ],
    [
      // Their orders' details, fetched again because their shipments changed.
      'orders (delivered)',
      `UPDATE fulfillment.orders o SET order_status_code = 'DELIVERED'
         FROM fulfillment.shipment_events e
         JOIN fulfillment.shipments s ON s.container_id = e.container_id
        WHERE e.event_time = now() - interval '5 minutes' AND e.description = 'Delivered'
          AND s.account_number = o.account_number AND s.order_number = o.order_number`,
    ],
    [
      'returns',
      `INSERT INTO fulfillment.returns (ship_return_id, account_number, order_number, ship_from_warehouse_code,
         return_reason_code, return_reason_name, processing_status_code, ship_date, return_date)
       SELECT 900000000 + ${tag.charCodeAt(0)} * 1000 + row_number() OVER (), o.account_number, o.order_number, o.warehouse_code, 'DAMAGED', 'Damaged',
              'NEW', o.shipped_date, now() - interval '30 minutes'
         FROM (SELECT * FROM fulfillment.orders WHERE shipped_date < now() - interval '5 days'
                ORDER BY shipped_date DESC LIMIT ${Math.max(1, Math.round(pairs / 8 / 24))}) o`,
    ],
    [
      'return_lines',
      `INSERT INTO fulfillment.return_lines (ship_return_id, line_number, component_number, sku, quantity_returned,
         quantity_damaged)
       SELECT ship_return_id, 1, 0, substr(account_number, 4)::int || 'W001', 1, 1
         FROM fulfillment.returns
        WHERE ship_return_id BETWEEN 900000000 + ${tag.charCodeAt(0)} * 1000 AND 900000999 + ${tag.charCodeAt(0)} * 1000`,
    ],
    [
      'inventory_history (closed)',
      `UPDATE fulfillment.inventory_history h SET valid_to = now() - interval '20 minutes'
         FROM (${changedKeys}) k
        WHERE (h.supplier_id, h.warehouse_code, h.sub_inventory_code, h.sku, h.valid_from)
            = (k.supplier_id, k.warehouse_code, k.sub_inventory_code, k.sku, k.valid_from)`,
    ],
    [
      'inventory_history (opened)',
      `INSERT INTO fulfillment.inventory_history (supplier_id, warehouse_code, sub_inventory_code, sku, valid_from,
         qty_on_hand, qty_on_orders, qty_on_ins, qty_available_to_sell, qty_available_to_promise)
       SELECT supplier_id, warehouse_code, sub_inventory_code, sku, valid_to, greatest(qty_on_hand - 5, 0), 3, 0,
              greatest(qty_on_hand - 8, 0), 0
         FROM fulfillment.inventory_history WHERE valid_to = now() - interval '20 minutes'`,
    ],
    [
      'inventory',
      `UPDATE fulfillment.inventory i SET qty_on_hand = h.qty_on_hand, qty_available_to_sell = h.qty_available_to_sell
         FROM fulfillment.inventory_history h
        WHERE h.valid_to IS NULL AND h.valid_from = now() - interval '20 minutes'
          AND (i.supplier_id, i.warehouse_code, i.sub_inventory_code, i.sku)
            = (h.supplier_id, h.warehouse_code, h.sub_inventory_code, h.sku)`,
    ],
    [
      'inventory_activity',
      `INSERT INTO fulfillment.inventory_activity (supplier_id, activity_date, warehouse_code, sub_inventory_code, sku,
         beginning_on_hand, ending_on_hand, qty_shipped, qty_received)
       SELECT supplier_id, (now() AT TIME ZONE 'America/Los_Angeles')::date, warehouse_code, sub_inventory_code, sku,
              qty_on_hand + 5, qty_on_hand, 5, 0
         FROM fulfillment.inventory_history WHERE valid_to IS NULL AND valid_from = now() - interval '20 minutes'
       ON CONFLICT (supplier_id, activity_date, warehouse_code, sub_inventory_code, sku) DO UPDATE
         SET ending_on_hand = excluded.ending_on_hand, qty_shipped = inventory_activity.qty_shipped + 5`,
    ],
  ];
}
