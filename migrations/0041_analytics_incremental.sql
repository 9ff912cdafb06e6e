-- The analytics relations become tables the worker keeps incrementally (src/analytics/models/):
-- triggers on the synced tables queue the keys each change touches (sync.analytics_changes) and
-- a refresh recomputes only those, never locking a reader out. The old materialized views are
-- copied into the new tables first (readers keep reading the old ones meanwhile), then swapped in
-- by name at the end; every table is marked for a rebuild, which the worker runs in the background
-- (readers keep the copied rows until it commits).
CREATE TABLE "sync"."analytics_changes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"relation" text NOT NULL,
	"key" text[],
	"from_at" timestamp with time zone,
	"queued_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync"."analytics_inventory_coverage" (
	"supplier_id" text PRIMARY KEY NOT NULL,
	"first_day" date
);
--> statement-breakpoint
ALTER TABLE "sync"."analytics_refreshes" ADD COLUMN "source_data_as_of" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "sync"."analytics_refreshes" ADD COLUMN "last_refresh_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "sync"."analytics_refreshes" ADD COLUMN "last_changes" integer;
--> statement-breakpoint
ALTER TABLE "sync"."analytics_refreshes" ADD COLUMN "pending_changes" integer;
--> statement-breakpoint
ALTER TABLE "sync"."analytics_refreshes" ADD COLUMN "last_rebuild_at" timestamp with time zone;
--> statement-breakpoint
CREATE INDEX "analytics_changes_relation_idx" ON "sync"."analytics_changes" USING btree ("relation","id");
--> statement-breakpoint
CREATE INDEX "analytics_changes_rebuild_idx" ON "sync"."analytics_changes" USING btree ("relation") WHERE "sync"."analytics_changes"."key" is null;
--> statement-breakpoint
CREATE TABLE "analytics"."shipment_facts__next" (
	"container_id" text NOT NULL,
	"account_number" text,
	"order_number" text,
	"warehouse_code" text,
	"warehouse_name" text,
	"carrier_name" text,
	"tracking_number" text,
	"status_code" text,
	"requested_service_level" text,
	"planned_service_level" text,
	"sla_status_code" text,
	"sla_status_name" text,
	"sla_date" timestamp with time zone,
	"order_created_at" timestamp with time zone,
	"ship_date" timestamp with time zone,
	"ship_day" date,
	"first_scan_at" timestamp with time zone,
	"last_scan_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"transit_days" numeric,
	"is_delivered" boolean,
	"is_exception" boolean,
	"had_exception" boolean,
	"is_returned_to_sender" boolean,
	"has_return" boolean,
	"shipped_after_sla" boolean,
	"units" integer,
	"ship_to_city" text,
	"ship_to_state_code" text,
	"ship_to_postal_code" text,
	"ship_to_country_code" text,
	CONSTRAINT "shipment_facts__next_pk" PRIMARY KEY("container_id")
);
--> statement-breakpoint
CREATE TABLE "analytics"."carrier_performance_weekly__next" (
	"week_start" date NOT NULL,
	"carrier_name" text NOT NULL,
	"shipments" integer,
	"units" integer,
	"delivered" integer,
	"had_exception" integer,
	"returned_to_sender" integer,
	"avg_transit_days" numeric,
	"median_transit_days" numeric,
	"p90_transit_days" numeric,
	"exception_rate" numeric,
	CONSTRAINT "carrier_performance_weekly__next_pk" PRIMARY KEY("week_start","carrier_name")
);
--> statement-breakpoint
CREATE TABLE "analytics"."order_lifecycle__next" (
	"account_number" text NOT NULL,
	"order_number" text NOT NULL,
	"warehouse_code" text,
	"warehouse_name" text,
	"order_type_code" text,
	"requested_service_level" text,
	"order_status_code" text,
	"received_at" timestamp with time zone,
	"shipped_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"shipments" integer,
	"holds" integer,
	"hours_to_ship" numeric,
	"days_in_transit" numeric,
	"days_to_deliver" numeric,
	CONSTRAINT "order_lifecycle__next_pk" PRIMARY KEY("account_number","order_number")
);
--> statement-breakpoint
CREATE TABLE "analytics"."daily_inventory__next" (
	"day" date NOT NULL,
	"supplier_id" text NOT NULL,
	"warehouse_code" text NOT NULL,
	"sub_inventory_code" text NOT NULL,
	"sku" text NOT NULL,
	"qty_on_hand" integer,
	"qty_available_to_sell" integer,
	"is_reconstructed" boolean,
	CONSTRAINT "daily_inventory__next_pk" PRIMARY KEY("supplier_id","warehouse_code","sub_inventory_code","sku","day")
);
--> statement-breakpoint
CREATE TABLE "analytics"."stock_out_spells__next" (
	"supplier_id" text NOT NULL,
	"warehouse_code" text NOT NULL,
	"sub_inventory_code" text NOT NULL,
	"sku" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"is_ongoing" boolean,
	"duration_hours" numeric,
	"out_when_first_seen" boolean,
	CONSTRAINT "stock_out_spells__next_pk" PRIMARY KEY("supplier_id","warehouse_code","sub_inventory_code","sku","started_at")
);
--> statement-breakpoint
CREATE TABLE "analytics"."shipped_units_daily" (
	"account_number" text NOT NULL,
	"warehouse_code" text NOT NULL,
	"sku" text NOT NULL,
	"shipments" integer NOT NULL,
	"units" integer NOT NULL,
	"ship_day" date NOT NULL,
	CONSTRAINT "shipped_units_daily_pk" PRIMARY KEY("account_number","ship_day","warehouse_code","sku")
);
--> statement-breakpoint
CREATE TABLE "analytics"."shipped_units_monthly" (
	"account_number" text NOT NULL,
	"warehouse_code" text NOT NULL,
	"sku" text NOT NULL,
	"shipments" integer NOT NULL,
	"units" integer NOT NULL,
	"month" date NOT NULL,
	CONSTRAINT "shipped_units_monthly_pk" PRIMARY KEY("account_number","month","warehouse_code","sku")
);
--> statement-breakpoint
-- Copied from the old materialized views as they stand (their last refresh): readers keep answers
-- until the rebuild requested below replaces them.
INSERT INTO "analytics"."shipment_facts__next"
SELECT container_id, account_number, order_number, warehouse_code, warehouse_name, carrier_name, tracking_number,
       status_code, requested_service_level, planned_service_level, sla_status_code, sla_status_name, sla_date,
       order_created_at, ship_date, ship_day, first_scan_at, last_scan_at, delivered_at, transit_days, is_delivered,
       is_exception, had_exception, is_returned_to_sender, has_return, shipped_after_sla, units, ship_to_city,
       ship_to_state_code, ship_to_postal_code, ship_to_country_code
  FROM "analytics"."shipment_facts";
--> statement-breakpoint
INSERT INTO "analytics"."carrier_performance_weekly__next"
SELECT week_start, carrier_name, shipments, units, delivered, had_exception, returned_to_sender, avg_transit_days,
       median_transit_days, p90_transit_days, exception_rate
  FROM "analytics"."carrier_performance_weekly";
--> statement-breakpoint
INSERT INTO "analytics"."order_lifecycle__next"
SELECT account_number, order_number, warehouse_code, warehouse_name, order_type_code, requested_service_level,
       order_status_code, received_at, shipped_at, delivered_at, shipments, holds, hours_to_ship, days_in_transit,
       days_to_deliver
  FROM "analytics"."order_lifecycle";
--> statement-breakpoint
INSERT INTO "analytics"."daily_inventory__next"
SELECT day, supplier_id, warehouse_code, sub_inventory_code, sku, qty_on_hand, qty_available_to_sell, is_reconstructed
  FROM "analytics"."daily_inventory";
--> statement-breakpoint
INSERT INTO "analytics"."stock_out_spells__next"
SELECT supplier_id, warehouse_code, sub_inventory_code, sku, started_at, ended_at, is_ongoing, duration_hours, false
  FROM "analytics"."stock_out_spells";
--> statement-breakpoint
-- The shipped units the return rates divide by, from the copied facts (the rebuild recomputes them).
INSERT INTO "analytics"."shipped_units_daily" (account_number, ship_day, warehouse_code, sku, shipments, units)
SELECT f.account_number, f.ship_day, coalesce(f.warehouse_code, ''), coalesce(l.sku, ''),
       count(DISTINCT f.container_id)::integer, coalesce(sum(l.quantity), 0)::integer
  FROM "analytics"."shipment_facts__next" f
  JOIN "fulfillment"."shipment_lines" l ON l.container_id = f.container_id
 WHERE f.ship_day IS NOT NULL AND f.account_number IS NOT NULL
 GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
INSERT INTO "analytics"."shipped_units_monthly" (account_number, month, warehouse_code, sku, shipments, units)
SELECT account_number, date_trunc('month', ship_day)::date, warehouse_code, sku, sum(shipments)::integer, sum(units)::integer
  FROM "analytics"."shipped_units_daily"
 GROUP BY 1, 2, 3, 4;
--> statement-breakpoint
CREATE INDEX "daily_inventory_sku_day_idx__next" ON "analytics"."daily_inventory__next" USING btree ("sku","day");
--> statement-breakpoint
CREATE INDEX "daily_inventory_day_idx__next" ON "analytics"."daily_inventory__next" USING btree ("day");
--> statement-breakpoint
CREATE INDEX "order_lifecycle_received_at_idx__next" ON "analytics"."order_lifecycle__next" USING btree ("received_at");
--> statement-breakpoint
CREATE INDEX "shipment_facts_ship_day_idx__next" ON "analytics"."shipment_facts__next" USING btree ("ship_day");
--> statement-breakpoint
CREATE INDEX "shipment_facts_account_ship_day_idx__next" ON "analytics"."shipment_facts__next" USING btree ("account_number","ship_day");
--> statement-breakpoint
CREATE INDEX "shipment_facts_carrier_ship_day_idx__next" ON "analytics"."shipment_facts__next" USING btree ("carrier_name","ship_day");
--> statement-breakpoint
CREATE INDEX "shipment_facts_order_idx__next" ON "analytics"."shipment_facts__next" USING btree ("account_number","order_number");
--> statement-breakpoint
CREATE INDEX "shipped_units_daily_ship_day_idx" ON "analytics"."shipped_units_daily" USING btree ("ship_day");
--> statement-breakpoint
CREATE INDEX "stock_out_spells_started_at_idx__next" ON "analytics"."stock_out_spells__next" USING btree ("started_at");
--> statement-breakpoint
CREATE INDEX "stock_out_spells_sku_idx__next" ON "analytics"."stock_out_spells__next" USING btree ("sku","started_at");
--> statement-breakpoint
-- The swap: readers wait for the old relations only from here to this migration's commit.
DROP MATERIALIZED VIEW "analytics"."return_rate_by_warehouse";
--> statement-breakpoint
DROP MATERIALIZED VIEW "analytics"."order_lifecycle";
--> statement-breakpoint
DROP MATERIALIZED VIEW "analytics"."carrier_performance_weekly";
--> statement-breakpoint
DROP MATERIALIZED VIEW "analytics"."return_rate_by_sku";
--> statement-breakpoint
DROP MATERIALIZED VIEW "analytics"."return_rate_by_reason";
--> statement-breakpoint
DROP MATERIALIZED VIEW "analytics"."shipment_facts";
--> statement-breakpoint
DROP MATERIALIZED VIEW "analytics"."daily_inventory";
--> statement-breakpoint
DROP MATERIALIZED VIEW "analytics"."stock_out_spells";
--> statement-breakpoint
ALTER TABLE "analytics"."shipment_facts__next" RENAME TO "shipment_facts";
--> statement-breakpoint
ALTER TABLE "analytics"."shipment_facts" RENAME CONSTRAINT "shipment_facts__next_pk" TO "shipment_facts_pk";
--> statement-breakpoint
ALTER TABLE "analytics"."carrier_performance_weekly__next" RENAME TO "carrier_performance_weekly";
--> statement-breakpoint
ALTER TABLE "analytics"."carrier_performance_weekly" RENAME CONSTRAINT "carrier_performance_weekly__next_pk" TO "carrier_performance_weekly_pk";
--> statement-breakpoint
ALTER TABLE "analytics"."order_lifecycle__next" RENAME TO "order_lifecycle";
--> statement-breakpoint
ALTER TABLE "analytics"."order_lifecycle" RENAME CONSTRAINT "order_lifecycle__next_pk" TO "order_lifecycle_pk";
--> statement-breakpoint
ALTER TABLE "analytics"."daily_inventory__next" RENAME TO "daily_inventory";
--> statement-breakpoint
ALTER TABLE "analytics"."daily_inventory" RENAME CONSTRAINT "daily_inventory__next_pk" TO "daily_inventory_pk";
--> statement-breakpoint
ALTER TABLE "analytics"."stock_out_spells__next" RENAME TO "stock_out_spells";
--> statement-breakpoint
ALTER TABLE "analytics"."stock_out_spells" RENAME CONSTRAINT "stock_out_spells__next_pk" TO "stock_out_spells_pk";
--> statement-breakpoint
ALTER INDEX "analytics"."daily_inventory_sku_day_idx__next" RENAME TO "daily_inventory_sku_day_idx";
--> statement-breakpoint
ALTER INDEX "analytics"."daily_inventory_day_idx__next" RENAME TO "daily_inventory_day_idx";
--> statement-breakpoint
ALTER INDEX "analytics"."order_lifecycle_received_at_idx__next" RENAME TO "order_lifecycle_received_at_idx";
--> statement-breakpoint
ALTER INDEX "analytics"."shipment_facts_ship_day_idx__next" RENAME TO "shipment_facts_ship_day_idx";
--> statement-breakpoint
ALTER INDEX "analytics"."shipment_facts_account_ship_day_idx__next" RENAME TO "shipment_facts_account_ship_day_idx";
--> statement-breakpoint
ALTER INDEX "analytics"."shipment_facts_carrier_ship_day_idx__next" RENAME TO "shipment_facts_carrier_ship_day_idx";
--> statement-breakpoint
ALTER INDEX "analytics"."shipment_facts_order_idx__next" RENAME TO "shipment_facts_order_idx";
--> statement-breakpoint
ALTER INDEX "analytics"."stock_out_spells_started_at_idx__next" RENAME TO "stock_out_spells_started_at_idx";
--> statement-breakpoint
ALTER INDEX "analytics"."stock_out_spells_sku_idx__next" RENAME TO "stock_out_spells_sku_idx";
--> statement-breakpoint
CREATE VIEW "analytics"."days_of_cover" AS (
    WITH today AS (SELECT (now() AT TIME ZONE 'America/Los_Angeles')::date AS day),
    stock AS MATERIALIZED (
      SELECT supplier_id, warehouse_code, sku, sum(qty_on_hand)::integer AS qty_on_hand,
             sum(qty_available_to_sell)::integer AS qty_available_to_sell
        FROM fulfillment.inventory WHERE vanished_at IS NULL GROUP BY 1, 2, 3),
    -- Materialized: inlined, its subquery would run once per output row.
    measured AS MATERIALIZED (
      SELECT s.supplier_id,
             greatest(least(28, t.day - (SELECT min(a.activity_date) FROM fulfillment.inventory_activity a
                                                WHERE a.supplier_id = s.supplier_id)), 0) AS days
        FROM (SELECT DISTINCT supplier_id FROM stock) s CROSS JOIN today t),
    shipped AS (
      SELECT a.supplier_id, a.warehouse_code, a.sku, sum(a.qty_shipped) AS units
        FROM fulfillment.inventory_activity a, today t
       WHERE a.activity_date >= t.day - 28 AND a.activity_date < t.day
       GROUP BY 1, 2, 3)
    SELECT s.supplier_id, s.warehouse_code, s.sku, s.qty_on_hand, s.qty_available_to_sell,
           s.qty_available_to_sell <= 0 AS is_out_of_stock,
           m.days AS days_measured, coalesce(x.units, 0)::integer AS units_shipped,
           round(coalesce(x.units, 0)::numeric / nullif(m.days, 0), 2) AS avg_daily_units_shipped,
           round(s.qty_on_hand * m.days / nullif(x.units, 0)::numeric, 1) AS days_of_cover
      FROM stock s
      JOIN measured m ON m.supplier_id = s.supplier_id
      LEFT JOIN shipped x
        ON x.supplier_id = s.supplier_id AND x.warehouse_code = s.warehouse_code AND x.sku = s.sku);
--> statement-breakpoint
CREATE VIEW "analytics"."freshness" AS (
    WITH coverage AS (
  SELECT c.stream,
         CASE WHEN bool_or(x.as_of IS NULL) THEN NULL ELSE min(x.as_of) END AS as_of
    FROM sync.cursors c
   CROSS JOIN LATERAL (
     SELECT CASE WHEN c.stream IN ('inventory_activity', 'transfers_in', 'transfers_out', 'returns', 'invoices') AND c.position_at IS NOT NULL
                 THEN least(c.last_success_at,
                            (((c.position_at AT TIME ZONE 'America/Los_Angeles')::date + 1)::timestamp
                              AT TIME ZONE 'America/Los_Angeles'))
                 ELSE coalesce(c.position_at, c.last_success_at) END AS as_of) x
   GROUP BY c.stream),
    catalogue (relation, models, streams) AS (
    VALUES ('analytics.shipment_facts', ARRAY['analytics.shipment_facts'], ARRAY[]::text[]),
           ('analytics.order_lifecycle', ARRAY['analytics.order_lifecycle'], ARRAY[]::text[]),
           ('analytics.carrier_performance_weekly', ARRAY['analytics.carrier_performance_weekly'], ARRAY[]::text[]),
           ('analytics.shipped_units_daily', ARRAY['analytics.shipped_units_daily'], ARRAY[]::text[]),
           ('analytics.shipped_units_monthly', ARRAY['analytics.shipped_units_daily'], ARRAY[]::text[]),
           ('analytics.daily_inventory', ARRAY['analytics.daily_inventory'], ARRAY[]::text[]),
           ('analytics.stock_out_spells', ARRAY['analytics.stock_out_spells'], ARRAY[]::text[]),
           ('analytics.return_rate_by_sku', ARRAY['analytics.shipped_units_daily'], ARRAY['returns']),
           ('analytics.return_rate_by_reason', ARRAY['analytics.shipped_units_daily'], ARRAY['returns']),
           ('analytics.return_rate_by_warehouse', ARRAY['analytics.shipped_units_daily'], ARRAY['returns']),
           ('analytics.return_rate_monthly', ARRAY['analytics.shipped_units_daily'], ARRAY['returns']),
           ('analytics.days_of_cover', ARRAY[]::text[], ARRAY['inventory', 'inventory_activity']),
           ('analytics.products', ARRAY[]::text[], ARRAY['products', 'inventory']),
           ('analytics.open_transfers_in', ARRAY[]::text[], ARRAY['transfers_in'])),
    known AS (
      SELECT c.relation,
             CASE WHEN cardinality(c.models) = 0 THEN now() ELSE m.refreshed_as_of END AS refreshed_as_of,
             CASE WHEN (cardinality(c.models) > 0 AND m.source_data_as_of IS NULL)
                    OR (cardinality(c.streams) > 0 AND s.as_of IS NULL) THEN NULL
                  ELSE least(m.source_data_as_of, s.as_of) END AS source_data_as_of
        FROM catalogue c
       CROSS JOIN LATERAL (
         SELECT CASE WHEN count(a.refreshed_as_of) < cardinality(c.models) THEN NULL
                     ELSE min(a.refreshed_as_of) END AS refreshed_as_of,
                CASE WHEN count(a.source_data_as_of) < cardinality(c.models) THEN NULL
                     ELSE min(a.source_data_as_of) END AS source_data_as_of
           FROM sync.analytics_refreshes a WHERE a.relation = ANY (c.models)) m
       CROSS JOIN LATERAL (
         SELECT CASE WHEN count(v.as_of) < cardinality(c.streams) THEN NULL ELSE min(v.as_of) END AS as_of
           FROM coverage v WHERE v.stream = ANY (c.streams)) s)
    SELECT relation, refreshed_as_of, source_data_as_of,
           greatest(floor(extract(epoch FROM now() - source_data_as_of)), 0)::integer AS lag_seconds
      FROM known);
--> statement-breakpoint
CREATE VIEW "analytics"."products" AS (
    SELECT coalesce(p.supplier_id, i.supplier_id) AS supplier_id, coalesce(p.sku, i.sku) AS sku,
           coalesce(p.description, i.description) AS description, p.brand_name, p.fanciful_name, p.varietal,
           p.vintage, p.appellation, p.region_of_origin, p.country_of_origin_code, p.alcohol_type_code,
           p.alcohol_percentage, p.bottle_size_ml, p.units_per_case, p.item_type_code, p.retail_price,
           p.deactivation_status, p.sku IS NOT NULL AS has_product_record
      FROM fulfillment.products p
      FULL JOIN (SELECT supplier_id, sku, max(description) AS description
                   FROM fulfillment.inventory GROUP BY 1, 2) i
        ON i.supplier_id = p.supplier_id AND i.sku = p.sku);
--> statement-breakpoint
CREATE VIEW "analytics"."return_rate_monthly" AS (
    SELECT coalesce(s.account_number, r.account_number) AS account_number, coalesce(s.month, r.grouping) AS month,
           coalesce(s.units, 0)::integer AS units_shipped, coalesce(r.returns, 0)::integer AS returns,
           coalesce(r.units_returned, 0)::integer AS units_returned,
           coalesce(r.units_damaged, 0)::integer AS units_damaged,
           round(coalesce(r.units_returned, 0)::numeric / nullif(s.units, 0), 4) AS return_rate
      FROM (SELECT account_number, month, sum(units) AS units FROM analytics.shipped_units_monthly GROUP BY 1, 2) s
      FULL JOIN (
  SELECT x.account_number, date_trunc('month', x.return_date AT TIME ZONE 'America/Los_Angeles')::date AS grouping,
         max(x.return_reason_name) AS return_reason_name,
         count(DISTINCT x.ship_return_id)::integer AS returns,
         coalesce(sum(l.quantity_returned), 0)::integer AS units_returned,
         coalesce(sum(l.quantity_damaged), 0)::integer AS units_damaged
    FROM fulfillment.returns x
    LEFT JOIN fulfillment.return_lines l ON l.ship_return_id = x.ship_return_id
   WHERE x.return_date IS NOT NULL
   GROUP BY 1, 2) r
        ON r.account_number = s.account_number AND r.grouping = s.month);
--> statement-breakpoint
CREATE VIEW "analytics"."return_rate_by_reason" AS (
    SELECT r.account_number, r.grouping AS return_reason_code, r.return_reason_name, r.returns,
           r.units_returned, r.units_damaged, coalesce(s.units, 0)::integer AS units_shipped,
           round(r.units_returned::numeric / nullif(s.units, 0), 4) AS return_rate,
           round(r.units_returned::numeric / nullif(sum(r.units_returned) OVER (PARTITION BY r.account_number), 0), 4)
             AS share_of_returned_units
      FROM (
  SELECT x.account_number, coalesce(x.return_reason_code, '') AS grouping,
         max(x.return_reason_name) AS return_reason_name,
         count(DISTINCT x.ship_return_id)::integer AS returns,
         coalesce(sum(l.quantity_returned), 0)::integer AS units_returned,
         coalesce(sum(l.quantity_damaged), 0)::integer AS units_damaged
    FROM fulfillment.returns x
    LEFT JOIN fulfillment.return_lines l ON l.ship_return_id = x.ship_return_id
   GROUP BY 1, 2) r
      LEFT JOIN (SELECT account_number, sum(units) AS units FROM analytics.shipped_units_monthly GROUP BY 1) s
        ON s.account_number = r.account_number);
--> statement-breakpoint
CREATE VIEW "analytics"."return_rate_by_sku" AS (
    SELECT coalesce(s.account_number, r.account_number) AS account_number, coalesce(s.sku, r.sku) AS sku,
           coalesce(s.shipments, 0)::integer AS shipments, coalesce(s.units, 0)::integer AS units_shipped,
           coalesce(r.returns, 0)::integer AS returns, coalesce(r.units, 0)::integer AS units_returned,
           coalesce(r.damaged, 0)::integer AS units_damaged,
           round(coalesce(r.units, 0)::numeric / nullif(s.units, 0), 4) AS return_rate
      FROM (
  SELECT account_number, sku, sum(units) AS units, sum(shipments) AS shipments
    FROM analytics.shipped_units_monthly GROUP BY 1, 2) s
      FULL JOIN (
  SELECT r.account_number, coalesce(l.sku, '') AS sku, sum(l.quantity_returned) AS units,
         sum(l.quantity_damaged) AS damaged, count(DISTINCT r.ship_return_id) AS returns
    FROM fulfillment.return_lines l JOIN fulfillment.returns r ON r.ship_return_id = l.ship_return_id
   GROUP BY 1, 2) r ON r.account_number = s.account_number AND r.sku = s.sku);
--> statement-breakpoint
CREATE VIEW "analytics"."return_rate_by_warehouse" AS (
    SELECT coalesce(s.account_number, r.account_number) AS account_number,
           coalesce(s.warehouse_code, r.grouping) AS warehouse_code,
           coalesce(s.units, 0)::integer AS units_shipped, coalesce(r.returns, 0)::integer AS returns,
           coalesce(r.units_returned, 0)::integer AS units_returned,
           coalesce(r.units_damaged, 0)::integer AS units_damaged,
           round(coalesce(r.units_returned, 0)::numeric / nullif(s.units, 0), 4) AS return_rate
      FROM (SELECT account_number, warehouse_code, sum(units) AS units
              FROM analytics.shipped_units_monthly GROUP BY 1, 2) s
      FULL JOIN (
  SELECT x.account_number, coalesce(x.ship_from_warehouse_code, '') AS grouping,
         max(x.return_reason_name) AS return_reason_name,
         count(DISTINCT x.ship_return_id)::integer AS returns,
         coalesce(sum(l.quantity_returned), 0)::integer AS units_returned,
         coalesce(sum(l.quantity_damaged), 0)::integer AS units_damaged
    FROM fulfillment.returns x
    LEFT JOIN fulfillment.return_lines l ON l.ship_return_id = x.ship_return_id
   GROUP BY 1, 2) r
        ON r.account_number = s.account_number AND r.grouping = s.warehouse_code);
--> statement-breakpoint
-- The change queue's writers: statement-level triggers on the synced tables the analytics tables
-- read. Each statement queues, in its own transaction, the keys of the rows it changed for every
-- analytics table they feed (changed_rows: the new rows of an insert or update, the old of a
-- delete); a truncate asks for a rebuild.
CREATE FUNCTION sync.analytics_queue_shipment() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sync.analytics_changes (relation, key)
  SELECT DISTINCT 'analytics.shipment_facts', ARRAY['container', c.container_id] FROM changed_rows c;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION sync.analytics_queue_shipment_lines() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sync.analytics_changes (relation, key)
  SELECT DISTINCT 'analytics.shipment_facts', ARRAY['container', c.container_id, 'lines'] FROM changed_rows c;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION sync.analytics_queue_order() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sync.analytics_changes (relation, key)
  SELECT DISTINCT r.relation, r.key
    FROM changed_rows c
   CROSS JOIN LATERAL (VALUES ('analytics.shipment_facts', ARRAY['order', c.account_number, c.order_number]),
                              ('analytics.order_lifecycle', ARRAY[c.account_number, c.order_number])) r (relation, key);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION sync.analytics_queue_order_hold() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sync.analytics_changes (relation, key)
  SELECT DISTINCT 'analytics.order_lifecycle', ARRAY[c.account_number, c.order_number] FROM changed_rows c;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION sync.analytics_queue_ship_to() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sync.analytics_changes (relation, key)
  SELECT DISTINCT 'analytics.shipment_facts', ARRAY['order', c.account_number, c.order_number]
    FROM changed_rows c WHERE c.role = 'ship_to' AND c.position = 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION sync.analytics_queue_return() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sync.analytics_changes (relation, key)
  SELECT DISTINCT 'analytics.shipment_facts', ARRAY['order', c.account_number, c.order_number]
    FROM changed_rows c WHERE c.order_number IS NOT NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION sync.analytics_queue_inventory_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sync.analytics_changes (relation, key, from_at)
  SELECT r.relation, ARRAY[c.supplier_id, c.warehouse_code, c.sub_inventory_code, c.sku] || r.tag, min(c.valid_from)
    FROM changed_rows c
   CROSS JOIN (VALUES ('analytics.daily_inventory', ARRAY['history']),
                      ('analytics.stock_out_spells', ARRAY[]::text[])) r (relation, tag)
   GROUP BY r.relation, r.tag, c.supplier_id, c.warehouse_code, c.sub_inventory_code, c.sku;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION sync.analytics_queue_inventory_version_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sync.analytics_changes (relation, key, from_at)
  SELECT r.relation, ARRAY[c.supplier_id, c.warehouse_code, c.sub_inventory_code, c.sku] || r.tag, min(c.from_at)
    FROM (SELECT n.supplier_id, n.warehouse_code, n.sub_inventory_code, n.sku,
                 CASE WHEN o.valid_from IS NULL OR n.valid_from IS NULL
                        OR (o.qty_on_hand, o.qty_available_to_sell) IS DISTINCT FROM (n.qty_on_hand, n.qty_available_to_sell)
                      THEN n.valid_from
                      WHEN o.valid_to IS DISTINCT FROM n.valid_to THEN least(o.valid_to, n.valid_to) END AS from_at
            FROM changed_rows n
            LEFT JOIN old_rows o
              ON o.supplier_id = n.supplier_id AND o.warehouse_code = n.warehouse_code
             AND o.sub_inventory_code = n.sub_inventory_code AND o.sku = n.sku AND o.valid_from = n.valid_from) c
   CROSS JOIN (VALUES ('analytics.daily_inventory', ARRAY['history']),
                      ('analytics.stock_out_spells', ARRAY[]::text[])) r (relation, tag)
   WHERE c.from_at IS NOT NULL
   GROUP BY r.relation, r.tag, c.supplier_id, c.warehouse_code, c.sub_inventory_code, c.sku;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION sync.analytics_queue_inventory_activity() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sync.analytics_changes (relation, key, from_at)
  SELECT 'analytics.daily_inventory', ARRAY[c.supplier_id, c.warehouse_code, c.sub_inventory_code, c.sku, 'activity'],
         min(c.activity_date)::timestamp AT TIME ZONE 'America/Los_Angeles'
    FROM changed_rows c
   GROUP BY c.supplier_id, c.warehouse_code, c.sub_inventory_code, c.sku;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION sync.analytics_queue_inventory_activity_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sync.analytics_changes (relation, key, from_at)
  SELECT 'analytics.daily_inventory', ARRAY[c.supplier_id, c.warehouse_code, c.sub_inventory_code, c.sku, 'activity'],
         min(c.activity_date)::timestamp AT TIME ZONE 'America/Los_Angeles'
    FROM changed_rows c
    LEFT JOIN old_rows o
      ON o.supplier_id = c.supplier_id AND o.activity_date = c.activity_date AND o.warehouse_code = c.warehouse_code
     AND o.sub_inventory_code = c.sub_inventory_code AND o.sku = c.sku
   WHERE o.sku IS NULL OR (o.beginning_on_hand, o.ending_on_hand) IS DISTINCT FROM (c.beginning_on_hand, c.ending_on_hand)
   GROUP BY c.supplier_id, c.warehouse_code, c.sub_inventory_code, c.sku;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE FUNCTION sync.analytics_queue_rebuild() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO sync.analytics_changes (relation, key) SELECT unnest(TG_ARGV), NULL;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER analytics_changes_insert AFTER INSERT ON "fulfillment"."shipments" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_shipment();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_update AFTER UPDATE ON "fulfillment"."shipments" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_shipment();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_delete AFTER DELETE ON "fulfillment"."shipments" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_shipment();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_truncate AFTER TRUNCATE ON "fulfillment"."shipments" FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_rebuild('analytics.shipment_facts');
--> statement-breakpoint
CREATE TRIGGER analytics_changes_insert AFTER INSERT ON "fulfillment"."shipment_lines" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_shipment_lines();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_update AFTER UPDATE ON "fulfillment"."shipment_lines" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_shipment_lines();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_delete AFTER DELETE ON "fulfillment"."shipment_lines" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_shipment_lines();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_truncate AFTER TRUNCATE ON "fulfillment"."shipment_lines" FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_rebuild('analytics.shipment_facts');
--> statement-breakpoint
CREATE TRIGGER analytics_changes_insert AFTER INSERT ON "fulfillment"."shipment_events" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_shipment();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_update AFTER UPDATE ON "fulfillment"."shipment_events" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_shipment();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_delete AFTER DELETE ON "fulfillment"."shipment_events" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_shipment();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_truncate AFTER TRUNCATE ON "fulfillment"."shipment_events" FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_rebuild('analytics.shipment_facts');
--> statement-breakpoint
CREATE TRIGGER analytics_changes_insert AFTER INSERT ON "fulfillment"."orders" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_order();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_update AFTER UPDATE ON "fulfillment"."orders" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_order();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_delete AFTER DELETE ON "fulfillment"."orders" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_order();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_truncate AFTER TRUNCATE ON "fulfillment"."orders" FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_rebuild('analytics.shipment_facts', 'analytics.order_lifecycle');
--> statement-breakpoint
CREATE TRIGGER analytics_changes_insert AFTER INSERT ON "fulfillment"."order_holds" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_order_hold();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_update AFTER UPDATE ON "fulfillment"."order_holds" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_order_hold();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_delete AFTER DELETE ON "fulfillment"."order_holds" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_order_hold();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_truncate AFTER TRUNCATE ON "fulfillment"."order_holds" FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_rebuild('analytics.order_lifecycle');
--> statement-breakpoint
CREATE TRIGGER analytics_changes_insert AFTER INSERT ON "fulfillment"."order_addresses" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_ship_to();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_update AFTER UPDATE ON "fulfillment"."order_addresses" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_ship_to();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_update_old AFTER UPDATE ON "fulfillment"."order_addresses" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_ship_to();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_delete AFTER DELETE ON "fulfillment"."order_addresses" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_ship_to();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_truncate AFTER TRUNCATE ON "fulfillment"."order_addresses" FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_rebuild('analytics.shipment_facts');
--> statement-breakpoint
CREATE TRIGGER analytics_changes_insert AFTER INSERT ON "fulfillment"."returns" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_return();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_update AFTER UPDATE ON "fulfillment"."returns" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_return();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_update_old AFTER UPDATE ON "fulfillment"."returns" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_return();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_delete AFTER DELETE ON "fulfillment"."returns" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_return();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_truncate AFTER TRUNCATE ON "fulfillment"."returns" FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_rebuild('analytics.shipment_facts');
--> statement-breakpoint
CREATE TRIGGER analytics_changes_insert AFTER INSERT ON "fulfillment"."inventory_history" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_inventory_version();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_update AFTER UPDATE ON "fulfillment"."inventory_history" REFERENCING OLD TABLE AS old_rows NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_inventory_version_update();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_delete AFTER DELETE ON "fulfillment"."inventory_history" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_inventory_version();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_truncate AFTER TRUNCATE ON "fulfillment"."inventory_history" FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_rebuild('analytics.daily_inventory', 'analytics.stock_out_spells');
--> statement-breakpoint
CREATE TRIGGER analytics_changes_insert AFTER INSERT ON "fulfillment"."inventory_activity" REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_inventory_activity();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_update AFTER UPDATE ON "fulfillment"."inventory_activity" REFERENCING OLD TABLE AS old_rows NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_inventory_activity_update();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_delete AFTER DELETE ON "fulfillment"."inventory_activity" REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_inventory_activity();
--> statement-breakpoint
CREATE TRIGGER analytics_changes_truncate AFTER TRUNCATE ON "fulfillment"."inventory_activity" FOR EACH STATEMENT EXECUTE FUNCTION sync.analytics_queue_rebuild('analytics.daily_inventory');
--> statement-breakpoint
-- Every kept table is rebuilt by the worker's first refresh (in the background, readers keep the
-- copied rows meanwhile); views no longer materialized have no refresh record.
INSERT INTO sync.analytics_changes (relation, key)
SELECT unnest(ARRAY['analytics.shipment_facts', 'analytics.order_lifecycle', 'analytics.carrier_performance_weekly',
                    'analytics.shipped_units_daily', 'analytics.daily_inventory', 'analytics.stock_out_spells']), NULL;
--> statement-breakpoint
DELETE FROM sync.analytics_refreshes
 WHERE relation NOT IN ('analytics.shipment_facts', 'analytics.order_lifecycle', 'analytics.carrier_performance_weekly',
                        'analytics.shipped_units_daily', 'analytics.daily_inventory', 'analytics.stock_out_spells');
