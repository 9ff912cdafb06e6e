CREATE VIEW "fulfillment"."inventory_current" AS (
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
                  WHERE v.qty_available_to_sell <= 0 AND (v.before IS NULL OR v.before > 0)
                    AND v.valid_from >= now() - interval '30 days'))::integer AS stock_outs_30d
          FROM (SELECT x.valid_from, x.valid_to, x.qty_available_to_sell,
                       lag(x.qty_available_to_sell) OVER (ORDER BY x.valid_from) AS before
                  FROM fulfillment.inventory_history x
                 WHERE x.supplier_id = i.supplier_id AND x.warehouse_code = i.warehouse_code
                   AND x.sub_inventory_code = i.sub_inventory_code AND x.sku = i.sku) v) h ON true);--> statement-breakpoint
CREATE VIEW "fulfillment"."invoice_balances" AS (
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
              FROM fulfillment.invoices n) v);--> statement-breakpoint
CREATE VIEW "fulfillment"."open_returns" AS (
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
     WHERE r.processing_status_code IS DISTINCT FROM 'RESOLVED');--> statement-breakpoint
CREATE VIEW "fulfillment"."shipment_status" AS (
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
         LIMIT 1) scan ON true);--> statement-breakpoint
CREATE VIEW "fulfillment"."shipments_per_day" AS (
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
     GROUP BY 1, o.warehouse_code, s.account_number);--> statement-breakpoint
CREATE VIEW "fulfillment"."sync_health" AS (
    WITH k AS (
      SELECT stream, scope FROM sync.cursors
      UNION
      SELECT DISTINCT stream, scope FROM sync.runs)
    SELECT k.stream, k.scope, c.last_success_at,
           floor(extract(epoch FROM now() - c.last_success_at))::bigint AS lag_seconds,
           c.position_at AS cursor_position_at,
           lr.started_at AS last_run_at, lr.status AS last_run_status,
           f.error AS last_error, f.finished_at AS last_error_at,
           f.finished_at IS NOT NULL AND (c.last_success_at IS NULL OR f.finished_at > c.last_success_at)
             AS is_failing,
           coalesce(d.runs, 0) AS runs_24h, coalesce(d.failed_runs, 0) AS failed_runs_24h,
           coalesce(d.rows_written, 0) AS rows_24h, coalesce(d.rejected, 0) AS rejected_24h,
           coalesce(d.events, 0) AS events_24h, coalesce(d.api_calls, 0) AS api_calls_24h
      FROM k
      LEFT JOIN sync.cursors c ON c.stream = k.stream AND c.scope = k.scope
      LEFT JOIN LATERAL (
        SELECT r.started_at, r.status FROM sync.runs r
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
           AND r.started_at > now() - interval '24 hours') d ON true);