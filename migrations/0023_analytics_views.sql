-- The analytics views that read analytics.shipment_facts (declared `existing` in src/db/schema/analytics/:
-- drizzle-kit creates views in name order, before the view they read), from the queries exported
-- there; then the indexes of every analytics materialized view (drizzle-kit does not declare them).
-- Each has a unique index on its key, which REFRESH MATERIALIZED VIEW CONCURRENTLY needs (readers are
-- never blocked by a refresh), and the indexes its documented questions filter on.
CREATE MATERIALIZED VIEW "analytics"."carrier_performance_weekly" AS (
    SELECT date_trunc('week', f.ship_day)::date AS week_start, coalesce(f.carrier_name, '') AS carrier_name,
           count(*)::integer AS shipments,
           sum(f.units)::integer AS units,
           (count(*) FILTER (WHERE f.is_delivered))::integer AS delivered,
           (count(*) FILTER (WHERE f.had_exception))::integer AS had_exception,
           (count(*) FILTER (WHERE f.is_returned_to_sender))::integer AS returned_to_sender,
           round(avg(f.transit_days), 2) AS avg_transit_days,
           round((percentile_cont(0.5) WITHIN GROUP (ORDER BY f.transit_days))::numeric, 2) AS median_transit_days,
           round((percentile_cont(0.9) WITHIN GROUP (ORDER BY f.transit_days))::numeric, 2) AS p90_transit_days,
           (count(*) FILTER (WHERE f.sla_date IS NOT NULL))::integer AS with_sla_date,
           (count(*) FILTER (WHERE f.delivered_after_sla))::integer AS delivered_after_sla,
           round((count(*) FILTER (WHERE f.had_exception))::numeric / count(*), 4) AS exception_rate
      FROM analytics.shipment_facts f
     WHERE f.ship_day IS NOT NULL
     GROUP BY 1, 2);--> statement-breakpoint
CREATE MATERIALIZED VIEW "analytics"."order_lifecycle" AS (
    SELECT o.account_number, o.order_number, o.warehouse_code, o.warehouse_name, o.order_type_code,
           o.requested_service_level, o.order_status_code,
           coalesce(o.received_date, o.creation_date) AS received_at,
           coalesce(f.shipped_at, o.shipped_date) AS shipped_at,
           f.delivered_at,
           coalesce(f.shipments, 0) AS shipments,
           coalesce(h.holds, 0) AS holds,
           round((extract(epoch FROM coalesce(f.shipped_at, o.shipped_date) - coalesce(o.received_date, o.creation_date))
                  / 3600)::numeric, 2) AS hours_to_ship,
           round((extract(epoch FROM f.delivered_at - coalesce(f.shipped_at, o.shipped_date)) / 86400)::numeric, 2)
             AS days_in_transit,
           round((extract(epoch FROM f.delivered_at - coalesce(o.received_date, o.creation_date)) / 86400)::numeric, 2)
             AS days_to_deliver
      FROM fulfillment.orders o
      LEFT JOIN (
        SELECT x.account_number, x.order_number, count(*)::integer AS shipments, min(x.ship_date) AS shipped_at,
               CASE WHEN bool_and(x.is_delivered) THEN max(x.delivered_at) END AS delivered_at
          FROM analytics.shipment_facts x
         GROUP BY x.account_number, x.order_number) f
        ON f.account_number = o.account_number AND f.order_number = o.order_number
      LEFT JOIN (
        SELECT y.account_number, y.order_number, count(*)::integer AS holds
          FROM fulfillment.order_holds y
         GROUP BY y.account_number, y.order_number) h
        ON h.account_number = o.account_number AND h.order_number = o.order_number);--> statement-breakpoint
CREATE MATERIALIZED VIEW "analytics"."return_rate_by_warehouse" AS (
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
        ON r.account_number = s.account_number AND r.warehouse_code = s.warehouse_code);--> statement-breakpoint
CREATE UNIQUE INDEX "shipment_facts_pk" ON "analytics"."shipment_facts" ("container_id");--> statement-breakpoint
CREATE INDEX "shipment_facts_ship_day_idx" ON "analytics"."shipment_facts" ("ship_day");--> statement-breakpoint
CREATE INDEX "shipment_facts_account_ship_day_idx" ON "analytics"."shipment_facts" ("account_number", "ship_day");--> statement-breakpoint
CREATE INDEX "shipment_facts_carrier_ship_day_idx" ON "analytics"."shipment_facts" ("carrier_name", "ship_day");--> statement-breakpoint
CREATE INDEX "shipment_facts_order_idx" ON "analytics"."shipment_facts" ("account_number", "order_number");--> statement-breakpoint
CREATE UNIQUE INDEX "carrier_performance_weekly_pk" ON "analytics"."carrier_performance_weekly" ("week_start", "carrier_name");--> statement-breakpoint
CREATE UNIQUE INDEX "order_lifecycle_pk" ON "analytics"."order_lifecycle" ("account_number", "order_number");--> statement-breakpoint
CREATE INDEX "order_lifecycle_received_at_idx" ON "analytics"."order_lifecycle" ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "return_rate_by_sku_pk" ON "analytics"."return_rate_by_sku" ("account_number", "sku");--> statement-breakpoint
CREATE UNIQUE INDEX "return_rate_by_reason_pk" ON "analytics"."return_rate_by_reason" ("account_number", "return_reason_code");--> statement-breakpoint
CREATE UNIQUE INDEX "return_rate_by_warehouse_pk" ON "analytics"."return_rate_by_warehouse" ("account_number", "warehouse_code");--> statement-breakpoint
CREATE UNIQUE INDEX "daily_inventory_pk" ON "analytics"."daily_inventory" ("supplier_id", "warehouse_code", "sub_inventory_code", "sku", "day");--> statement-breakpoint
CREATE INDEX "daily_inventory_sku_day_idx" ON "analytics"."daily_inventory" ("sku", "day");--> statement-breakpoint
CREATE INDEX "daily_inventory_day_idx" ON "analytics"."daily_inventory" ("day");--> statement-breakpoint
CREATE UNIQUE INDEX "stock_out_spells_pk" ON "analytics"."stock_out_spells" ("supplier_id", "warehouse_code", "sub_inventory_code", "sku", "started_at");--> statement-breakpoint
CREATE INDEX "stock_out_spells_started_at_idx" ON "analytics"."stock_out_spells" ("started_at");--> statement-breakpoint
CREATE INDEX "stock_out_spells_sku_idx" ON "analytics"."stock_out_spells" ("sku", "started_at");
