CREATE SCHEMA "analytics";
--> statement-breakpoint
DROP VIEW "fulfillment"."inventory_current";--> statement-breakpoint
CREATE VIEW "analytics"."open_transfers_in" AS (
    SELECT t.supplier_id, t.order_number, t.reference_number, t.warehouse_code, t.warehouse_name,
           t.status_code, t.status_name, t.creation_date AS created_at, t.submitted_date, t.expected_date,
           floor(extract(epoch FROM now() - coalesce(t.submitted_date, t.creation_date)) / 86400)::integer
             AS age_days,
           t.expected_date < now() AS is_overdue,
           coalesce(l.line_count, 0) AS line_count, l.qty_ordered, l.qty_received,
           greatest(l.qty_ordered - l.qty_received, 0) AS qty_outstanding
      FROM fulfillment.transfers_in t
      LEFT JOIN LATERAL (
        SELECT count(*)::integer AS line_count, sum(x.qty_ordered)::integer AS qty_ordered,
               sum(x.qty_received)::integer AS qty_received
          FROM fulfillment.transfer_in_lines x
         WHERE x.supplier_id = t.supplier_id AND x.order_number = t.order_number) l ON true
     WHERE t.status_code IN ('DRAFT', 'SUBMITTED', 'PROCESSING'));--> statement-breakpoint
CREATE MATERIALIZED VIEW "analytics"."daily_inventory" AS (
    WITH today AS (SELECT (now() AT TIME ZONE 'America/Los_Angeles')::date AS day),
    coverage AS (
      SELECT supplier_id, min(activity_date) AS first_day FROM fulfillment.inventory_activity GROUP BY supplier_id),
    first_observed AS (
      SELECT supplier_id, warehouse_code, sub_inventory_code, sku, (min(valid_from) AT TIME ZONE 'America/Los_Angeles')::date AS day,
             (array_agg(qty_on_hand ORDER BY valid_from))[1] AS qty_on_hand
        FROM fulfillment.inventory_history GROUP BY supplier_id, warehouse_code, sub_inventory_code, sku),
    activity AS (
      SELECT supplier_id, warehouse_code, sub_inventory_code, sku, activity_date, beginning_on_hand, ending_on_hand,
             lead(activity_date) OVER w AS next_day, row_number() OVER w AS n
        FROM fulfillment.inventory_activity
      WINDOW w AS (PARTITION BY supplier_id, warehouse_code, sub_inventory_code, sku ORDER BY activity_date)),
    spans AS (
      SELECT supplier_id, warehouse_code, sub_inventory_code, sku, activity_date AS from_day, coalesce(next_day - 1, (SELECT day FROM today)) AS to_day,
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
       SELECT (h.valid_from AT TIME ZONE 'America/Los_Angeles')::date AS first_day,
              coalesce((h.valid_to AT TIME ZONE 'America/Los_Angeles')::date - 1, (SELECT day FROM today)) AS last_day) b
     CROSS JOIN LATERAL generate_series(0, b.last_day - b.first_day) d(i)
    UNION ALL
    SELECT s.from_day + d.i, s.supplier_id, s.warehouse_code, s.sub_inventory_code, s.sku,
           s.qty_on_hand, NULL::integer, true
      FROM spans s
      LEFT JOIN first_observed f
        ON f.supplier_id = s.supplier_id AND f.warehouse_code = s.warehouse_code
       AND f.sub_inventory_code = s.sub_inventory_code AND f.sku = s.sku
     CROSS JOIN LATERAL generate_series(0, least(s.to_day, coalesce(f.day - 1, s.to_day)) - s.from_day) d(i));--> statement-breakpoint
CREATE MATERIALIZED VIEW "analytics"."return_rate_by_reason" AS (
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
      LEFT JOIN (SELECT account_number, sum(units) AS units FROM (
  SELECT s.account_number, coalesce(l.sku, '') AS sku, sum(l.quantity) AS units,
         count(DISTINCT s.container_id) AS shipments
    FROM fulfillment.shipment_lines l JOIN fulfillment.shipments s ON s.container_id = l.container_id
   GROUP BY 1, 2) t GROUP BY 1) s
        ON s.account_number = r.account_number);--> statement-breakpoint
CREATE MATERIALIZED VIEW "analytics"."return_rate_by_sku" AS (
    SELECT coalesce(s.account_number, r.account_number) AS account_number, coalesce(s.sku, r.sku) AS sku,
           coalesce(s.shipments, 0)::integer AS shipments, coalesce(s.units, 0)::integer AS units_shipped,
           coalesce(r.returns, 0)::integer AS returns, coalesce(r.units, 0)::integer AS units_returned,
           coalesce(r.damaged, 0)::integer AS units_damaged,
           round(coalesce(r.units, 0)::numeric / nullif(s.units, 0), 4) AS return_rate
      FROM (
  SELECT s.account_number, coalesce(l.sku, '') AS sku, sum(l.quantity) AS units,
         count(DISTINCT s.container_id) AS shipments
    FROM fulfillment.shipment_lines l JOIN fulfillment.shipments s ON s.container_id = l.container_id
   GROUP BY 1, 2) s
      FULL JOIN (
  SELECT r.account_number, coalesce(l.sku, '') AS sku, sum(l.quantity_returned) AS units,
         sum(l.quantity_damaged) AS damaged, count(DISTINCT r.ship_return_id) AS returns
    FROM fulfillment.return_lines l JOIN fulfillment.returns r ON r.ship_return_id = l.ship_return_id
   GROUP BY 1, 2) r ON r.account_number = s.account_number AND r.sku = s.sku);--> statement-breakpoint
CREATE MATERIALIZED VIEW "analytics"."shipment_facts" AS (
    SELECT s.container_id, s.account_number, s.order_number, o.warehouse_code, o.warehouse_name,
           s.carrier_name, s.tracking_number, s.status_code,
           o.requested_service_level, o.planned_service_level, o.sla_status_code, o.sla_status_name, o.sla_date,
           o.creation_date AS order_created_at,
           s.ship_date, (s.ship_date AT TIME ZONE 'America/Los_Angeles')::date AS ship_day,
           ev.first_scan_at, ev.last_scan_at, d.delivered_at,
           round((extract(epoch FROM d.delivered_at - s.ship_date) / 86400)::numeric, 2) AS transit_days,
           s.status_code = 'DELIVERED' AS is_delivered,
           s.status_code = 'EXCEPTION' AS is_exception,
           (s.status_code IN ('EXCEPTION', 'RETURNED') OR coalesce(ev.exception_scans, 0) > 0) AS had_exception,
           s.status_code = 'RETURNED' AS is_returned_to_sender,
           EXISTS (SELECT 1 FROM fulfillment.returns r
                    WHERE r.account_number = s.account_number AND r.order_number = s.order_number) AS has_return,
           s.ship_date > o.sla_date AS shipped_after_sla,
           d.delivered_at > o.sla_date AS delivered_after_sla,
           coalesce(l.units, 0)::integer AS units,
           a.city AS ship_to_city, a.state_code AS ship_to_state_code, a.postal_code AS ship_to_postal_code,
           a.country_code AS ship_to_country_code
      FROM fulfillment.shipments s
      LEFT JOIN fulfillment.orders o
        ON o.account_number = s.account_number AND o.order_number = s.order_number
      LEFT JOIN fulfillment.order_addresses a
        ON a.account_number = s.account_number AND a.order_number = s.order_number
       AND a.role = 'ship_to' AND a.position = 0
      LEFT JOIN LATERAL (
        SELECT min(e.event_time) AS first_scan_at, max(e.event_time) AS last_scan_at,
               count(*) FILTER (WHERE e.description ~* 'exception|refused') AS exception_scans
          FROM fulfillment.shipment_events e
         WHERE e.container_id = s.container_id) ev ON true
      CROSS JOIN LATERAL (
        SELECT CASE WHEN s.status_code = 'DELIVERED' THEN ev.last_scan_at END AS delivered_at) d
      LEFT JOIN LATERAL (
        SELECT sum(x.quantity) AS units FROM fulfillment.shipment_lines x
         WHERE x.container_id = s.container_id) l ON true);--> statement-breakpoint
CREATE MATERIALIZED VIEW "analytics"."stock_out_spells" AS (
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
      FROM spells WHERE NOT first_seen_out);--> statement-breakpoint
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
                  WHERE v.qty_available_to_sell <= 0 AND v.before > 0
                    AND v.valid_from >= now() - interval '30 days'))::integer AS stock_outs_30d
          FROM (SELECT x.valid_from, x.valid_to, x.qty_available_to_sell,
                       lag(x.qty_available_to_sell) OVER (ORDER BY x.valid_from) AS before
                  FROM fulfillment.inventory_history x
                 WHERE x.supplier_id = i.supplier_id AND x.warehouse_code = i.warehouse_code
                   AND x.sub_inventory_code = i.sub_inventory_code AND x.sku = i.sku) v) h ON true);