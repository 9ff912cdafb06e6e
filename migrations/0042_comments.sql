COMMENT ON TABLE "sync"."analytics_changes" IS 'What the kept tables of schema analytics still have to take in: a row per key a statement changed in a synced table (for each kept table it feeds), queued by triggers in the writing transaction, and by a refresh for the tables reading the one it refreshed. The refresh that takes a row in deletes it in the same transaction. Drained about every minute; a backlog beyond 2,000,000 rows is folded into one rebuild. Key: id.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_changes"."id" IS 'Order of queuing (a refresh takes in the oldest first).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_changes"."relation" IS 'The kept table that has to take it in (schema.name).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_changes"."key" IS 'The key it touches in that table''s terms (a container, an order, an inventory row, a week, an account and day); null: rebuild the table whole.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_changes"."from_at" IS 'For the inventory tables: the instant from which the change matters (a version begun or closed, a day of activity); null: all of the row.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_changes"."queued_at" IS 'When the change was queued (the start of the writing transaction).';
--> statement-breakpoint
COMMENT ON TABLE "sync"."analytics_inventory_coverage" IS 'Per supplier, the earliest inventory activity day analytics.daily_inventory reconstructs from, as of its last refresh: when the history read reaches further back, every row of the supplier is reconstructed again. One row per supplier. Key: supplier_id.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_inventory_coverage"."supplier_id" IS 'Supplier id.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_inventory_coverage"."first_day" IS 'Its earliest fulfillment.inventory_activity day at the last refresh.';
--> statement-breakpoint
COMMENT ON TABLE "sync"."analytics_refreshes" IS 'How far each table of schema analytics the worker keeps has been brought (src/analytics/refresh.ts), written by each refresh in its own transaction; readers see the safe part through analytics.freshness. One row per table, so bounded. Key: relation.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."relation" IS 'The kept table, as schema.name (e.g. analytics.shipment_facts).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."changed_at" IS 'When the newest change its refreshes took in was queued (a sync changed its sources then).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."refreshed_as_of" IS 'Every change committed before this instant is in the table (or, for a table reading another kept table, before that one is): the start of its last refresh that left nothing queued. Its age is how stale the table can be.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."source_data_as_of" IS 'The upstream time its data is complete up to, as of refreshed_as_of: the least coverage of the streams it reads (the cursors'' positions, or last successes) and of the kept tables it reads.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."last_refresh_at" IS 'When its last refresh ended (the next one is due a refresh interval later, sooner while changes are left).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."last_duration_ms" IS 'How long its last successful refresh took, in milliseconds.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."last_changes" IS 'Queued changes its last refresh took in.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."pending_changes" IS 'Queued changes left after its last refresh (a backlog taken in by the next ones); 0 when it caught up.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."last_rebuild_at" IS 'When it was last rebuilt whole (after an upgrade, a truncate, or `analytics rebuild`).';
--> statement-breakpoint
COMMENT ON TABLE "analytics"."carrier_performance_weekly" IS 'Carrier performance per week of ship day (Monday-started Pacific weeks), over every account: shipments, delivered, exceptions, transit-time average, median and 90th percentile. Answers: is a carrier getting slower or less reliable? Example: SELECT week_start, carrier_name, median_transit_days, exception_rate FROM analytics.carrier_performance_weekly WHERE week_start >= current_date - 84 ORDER BY 1, 2. One row per week_start and carrier_name. A table the worker keeps: what a sync changes in its sources is queued with it and taken in by a refresh about every minute, which recomputes only what changed (analytics.freshness says as of when). A week whose shipments changed is recomputed whole.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."carrier_performance_weekly"."week_start" IS 'Monday of the Pacific week of the ship day.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."carrier_performance_weekly"."carrier_name" IS 'Carrier name; '''' groups the rows without one.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."carrier_performance_weekly"."shipments" IS 'Shipments shipped that week by that carrier.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."carrier_performance_weekly"."units" IS 'Units in them.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."carrier_performance_weekly"."delivered" IS 'Of these, how many are delivered now.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."carrier_performance_weekly"."had_exception" IS 'Of these, how many had an exception (see shipment_facts.had_exception).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."carrier_performance_weekly"."returned_to_sender" IS 'Of these, how many are RETURNED to the sender.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."carrier_performance_weekly"."avg_transit_days" IS 'Average transit_days of the delivered ones (2 decimals).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."carrier_performance_weekly"."median_transit_days" IS 'Median transit_days of the delivered ones.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."carrier_performance_weekly"."p90_transit_days" IS '90th percentile of transit_days of the delivered ones.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."carrier_performance_weekly"."exception_rate" IS 'had_exception / shipments (4 decimals).';
--> statement-breakpoint
COMMENT ON TABLE "analytics"."daily_inventory" IS 'On-hand stock per Pacific day, supplier, warehouse, sub-inventory and SKU at the end of the day, reaching back over the history the first load read. Days observed by the worker come from fulfillment.inventory_history; days before a row was first observed are reconstructed from fulfillment.inventory_activity (beginning and ending on-hand per day) and marked is_reconstructed. Answers: how did stock of a wine develop over the last months, per warehouse? Example: SELECT day, warehouse_code, sum(qty_on_hand) FROM analytics.daily_inventory WHERE sku = ''1W003'' AND day >= current_date - 90 GROUP BY 1, 2 ORDER BY 1, 2. One row per day and key. A table the worker keeps: what a sync changes in its sources is queued with it and taken in by a refresh about every minute, which recomputes only what changed (analytics.freshness says as of when). A change recomputes its row from the day it matters; each new day extends the rows still open.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."daily_inventory"."day" IS 'Pacific calendar day; the quantities are those at its end (or now, for today).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."daily_inventory"."supplier_id" IS 'Supplier the inventory belongs to.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."daily_inventory"."warehouse_code" IS 'Warehouse code.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."daily_inventory"."sub_inventory_code" IS 'Sub-inventory code (FG finished goods, QA, DMG, ...).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."daily_inventory"."sku" IS 'SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."daily_inventory"."qty_on_hand" IS 'Units on hand at the end of the day.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."daily_inventory"."qty_available_to_sell" IS 'Units available to sell at the end of the day; null on reconstructed days (the activity report has no such figure).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."daily_inventory"."is_reconstructed" IS 'Whether the day is before the worker first saw the row, so reconstructed from inventory activity rather than observed.';
--> statement-breakpoint
COMMENT ON TABLE "analytics"."order_lifecycle" IS 'One row per synced order (account_number, order_number): received, shipped and delivered times and the durations between, with warehouse, order type, service level and holds. The API has no order list: an order is here once a shipment or return names it. Answers: how long do orders take from receipt to shipping and to the door, per warehouse? Example: SELECT warehouse_code, percentile_cont(0.5) WITHIN GROUP (ORDER BY hours_to_ship) FROM analytics.order_lifecycle WHERE received_at >= now() - interval ''30 days'' GROUP BY 1. A table the worker keeps: what a sync changes in its sources is queued with it and taken in by a refresh about every minute, which recomputes only what changed (analytics.freshness says as of when).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."order_lifecycle"."account_number" IS 'Account of the order.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."order_lifecycle"."order_number" IS 'Order number.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."order_lifecycle"."warehouse_code" IS 'Warehouse fulfilling the order.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."order_lifecycle"."warehouse_name" IS 'Warehouse name.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."order_lifecycle"."order_type_code" IS 'Order type code (order detail).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."order_lifecycle"."requested_service_level" IS 'Service level the order requested.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."order_lifecycle"."order_status_code" IS 'Order status as last synced.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."order_lifecycle"."received_at" IS 'When the order was received (received_date, else creation_date).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."order_lifecycle"."shipped_at" IS 'When its first shipment shipped (else the order shipped_date); null while unshipped.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."order_lifecycle"."delivered_at" IS 'When its last shipment was delivered, once all its shipments are; null before.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."order_lifecycle"."shipments" IS 'Its shipments (analytics.shipment_facts).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."order_lifecycle"."holds" IS 'Holds it carried (fulfillment.order_holds).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."order_lifecycle"."hours_to_ship" IS 'Hours from received_at to shipped_at (2 decimals).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."order_lifecycle"."days_in_transit" IS 'Days from shipped_at to delivered_at (2 decimals).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."order_lifecycle"."days_to_deliver" IS 'Days from received_at to delivered_at (2 decimals).';
--> statement-breakpoint
COMMENT ON TABLE "analytics"."shipment_facts" IS 'One row per shipment (container_id) with its scans, transit time, exception and return flags and its order''s warehouse, service level, SLA and ship-to region. Answers: which shipments are slow or in trouble, per carrier, warehouse or account, and which orders shipped after their SLA date? Example: SELECT carrier_name, avg(transit_days), count(*) FILTER (WHERE had_exception) FROM analytics.shipment_facts WHERE ship_day >= current_date - 28 GROUP BY 1. No consumer name, email, phone or street line. A table the worker keeps: what a sync changes in its sources is queued with it and taken in by a refresh about every minute, which recomputes only what changed (analytics.freshness says as of when).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."container_id" IS 'Shipment (container) id; one row each.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."account_number" IS 'Account the shipment was synced for.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."order_number" IS 'Order the shipment fulfils.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."warehouse_code" IS 'Warehouse of the shipment''s order (order detail); null until the order detail is synced.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."warehouse_name" IS 'Warehouse name (order detail).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."carrier_name" IS 'Carrier name on the shipment.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."tracking_number" IS 'Carrier tracking number.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."status_code" IS 'Current shipment status: DELIVERED, EXCEPTION, IN_TRANSIT, RETURNED, SHIPPED.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."requested_service_level" IS 'Service level the order requested (order detail).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."planned_service_level" IS 'Service level planned for the order (order detail).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."sla_status_code" IS 'The order''s SLA status as the API gives it (order detail): the warehouse''s shipping promise (ON_TIME while open, MET or MISSED once shipped in the sandbox).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."sla_status_name" IS 'SLA status name of the order (order detail).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."sla_date" IS 'SLA date of the order (order detail): the time by which the warehouse promises to ship it (a fulfillment SLA, not a delivery date); null without one.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."order_created_at" IS 'When the order was created (order creation_date); null until the order detail is synced.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."ship_date" IS 'When the shipment shipped (shipment header).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."ship_day" IS 'Calendar day of ship_date in America/Los_Angeles (the API''s zone).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."first_scan_at" IS 'Time of the earliest tracking scan (fulfillment.shipment_events); null before the first scan.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."last_scan_at" IS 'Time of the latest tracking scan; null before the first scan.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."delivered_at" IS 'When it was delivered: the latest scan of a shipment now DELIVERED (its status follows its latest scan); null while not delivered.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."transit_days" IS 'Days from ship_date to delivered_at (2 decimals); null while not delivered.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."is_delivered" IS 'Whether the status is DELIVERED.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."is_exception" IS 'Whether the status is EXCEPTION now.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."had_exception" IS 'Whether it ever had an exception: status EXCEPTION or RETURNED now, or a scan whose description mentions an exception or a refusal (the scans carry no status).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."is_returned_to_sender" IS 'Whether the status is RETURNED (back to the sender).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."has_return" IS 'Whether a return (fulfillment.returns) names its order.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."shipped_after_sla" IS 'Whether it shipped after its order''s SLA date: the SLA miss (it agrees with sla_status_code MISSED); null without either date.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."units" IS 'Sum of its shipment line quantities (0 without lines).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."ship_to_city" IS 'City of the order''s first ship-to address (no street line, no name).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."ship_to_state_code" IS 'State code of the order''s first ship-to address.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."ship_to_postal_code" IS 'Postal code of the order''s first ship-to address.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."ship_to_country_code" IS 'Country code of the order''s first ship-to address.';
--> statement-breakpoint
COMMENT ON TABLE "analytics"."shipped_units_daily" IS 'Units shipped per account, warehouse, SKU and Pacific ship day, from the shipment lines of the shipments in analytics.shipment_facts (a shipment without a ship date is not counted). Answers: how much of a wine ships each day, from where? Example: SELECT ship_day, sum(units) FROM analytics.shipped_units_daily WHERE sku = ''1W003'' AND ship_day >= current_date - 28 GROUP BY 1 ORDER BY 1. One row per account_number, ship_day, warehouse_code and sku. A table the worker keeps: what a sync changes in its sources is queued with it and taken in by a refresh about every minute, which recomputes only what changed (analytics.freshness says as of when).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipped_units_daily"."account_number" IS 'Account the shipments were synced for.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipped_units_daily"."warehouse_code" IS 'Warehouse of the shipments'' orders (order detail); '''' groups the rows without one.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipped_units_daily"."sku" IS 'SKU of the shipment lines; '''' groups the rows without one.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipped_units_daily"."shipments" IS 'Shipments (containers) with a line of this SKU that day.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipped_units_daily"."units" IS 'Units of this SKU shipped that day (sum of shipment line quantities).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipped_units_daily"."ship_day" IS 'Calendar day of the ship date in America/Los_Angeles (the API''s zone).';
--> statement-breakpoint
COMMENT ON TABLE "analytics"."shipped_units_monthly" IS 'Units shipped per account, warehouse, SKU and Pacific month: analytics.shipped_units_daily summed per month (the return rates divide by it). Answers: how much shipped each month? Example: SELECT month, sum(units) FROM analytics.shipped_units_monthly GROUP BY 1 ORDER BY 1. One row per account_number, month, warehouse_code and sku. Kept with analytics.shipped_units_daily, in the same refresh.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipped_units_monthly"."account_number" IS 'Account the shipments were synced for.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipped_units_monthly"."warehouse_code" IS 'Warehouse of the shipments'' orders (order detail); '''' groups the rows without one.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipped_units_monthly"."sku" IS 'SKU of the shipment lines; '''' groups the rows without one.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipped_units_monthly"."shipments" IS 'Shipments (containers) with a line of this SKU that month.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipped_units_monthly"."units" IS 'Units of this SKU shipped that month (sum of shipment line quantities).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipped_units_monthly"."month" IS 'First day of the Pacific month of the ship date.';
--> statement-breakpoint
COMMENT ON TABLE "analytics"."stock_out_spells" IS 'Stock-out spells per supplier, warehouse, sub-inventory and SKU from fulfillment.inventory_history: a run of versions with qty_available_to_sell at 0 or less, from the first of them until the next version above 0. A row already at 0 when the worker first saw it starts a spell there (out_when_first_seen: it ran out before, when is unknown). Sub-inventories never available to sell (QA, damaged) are out from their first observation on. Answers: what ran out, when and for how long? Example: SELECT sku, warehouse_code, count(*), sum(coalesce(ended_at, now()) - started_at) FROM analytics.stock_out_spells WHERE started_at >= now() - interval ''90 days'' AND NOT out_when_first_seen GROUP BY 1, 2. One row per key and started_at. A table the worker keeps: what a sync changes in its sources is queued with it and taken in by a refresh about every minute, which recomputes only what changed (analytics.freshness says as of when).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."supplier_id" IS 'Supplier the inventory belongs to.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."warehouse_code" IS 'Warehouse code.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."sub_inventory_code" IS 'Sub-inventory code.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."sku" IS 'SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."started_at" IS 'When qty_available_to_sell was seen at 0 or less after being above 0 (detection time), or the first observation of a row already out.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."ended_at" IS 'When it was first seen above 0 again; null while the spell lasts.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."is_ongoing" IS 'Whether the spell still lasts (at the last refresh).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."duration_hours" IS 'Hours from started_at to ended_at (2 decimals); null while ongoing (use coalesce(ended_at, now())).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."out_when_first_seen" IS 'Whether the row was already out when the worker first saw it: it ran out earlier, so started_at is when it was first seen, not when it ran out.';
--> statement-breakpoint
COMMENT ON VIEW "analytics"."days_of_cover" IS 'Stock now and how many days it lasts, per supplier, warehouse and SKU (summed over sub-inventories): on hand and available to sell from fulfillment.inventory (the current state; a row the owned listing no longer names is left out), against the units shipped per day over the last 28 complete Pacific days (fewer right after the install: as far back as the inventory activity goes), from the warehouse''s own activity report (fulfillment.inventory_activity qty_shipped). Answers: how many days of stock are left, and what is out of stock now? Example: SELECT warehouse_code, sku, qty_on_hand, days_of_cover FROM analytics.days_of_cover WHERE days_of_cover < 14 ORDER BY days_of_cover. One row per supplier_id, warehouse_code and sku. A plain view: as of the last inventory sync.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."days_of_cover"."supplier_id" IS 'Supplier the inventory belongs to.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."days_of_cover"."warehouse_code" IS 'Warehouse code.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."days_of_cover"."sku" IS 'SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."days_of_cover"."qty_on_hand" IS 'Units on hand now, over its sub-inventories (finished goods, QA, damaged, ...).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."days_of_cover"."qty_available_to_sell" IS 'Units available to sell now, over its sub-inventories.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."days_of_cover"."is_out_of_stock" IS 'Whether nothing is available to sell now (qty_available_to_sell 0 or less).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."days_of_cover"."days_measured" IS 'Complete Pacific days the shipping rate is measured over: 28, or fewer when the supplier''s inventory activity starts later.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."days_of_cover"."units_shipped" IS 'Units shipped over those days (inventory activity qty_shipped).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."days_of_cover"."avg_daily_units_shipped" IS 'units_shipped / days_measured (2 decimals); null without a day measured.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."days_of_cover"."days_of_cover" IS 'qty_on_hand / avg_daily_units_shipped: days the stock lasts at that rate (1 decimal); null when nothing shipped.';
--> statement-breakpoint
COMMENT ON VIEW "analytics"."freshness" IS 'How fresh each relation of schema analytics is, for readers (schema sync stays closed to them). Answers: data as of when? Example: SELECT ''data as of '' || to_char(source_data_as_of AT TIME ZONE ''America/Los_Angeles'', ''YYYY-MM-DD HH24:MI'') FROM analytics.freshness WHERE relation = ''analytics.shipment_facts''. One row per relation.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."freshness"."relation" IS 'The analytics relation, as schema.name.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."freshness"."refreshed_as_of" IS 'Every change the worker stored before this instant is in the relation (for a plain view over synced tables: now).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."freshness"."source_data_as_of" IS 'The upstream time its data is complete up to: the least of how far the streams it reads have synced (every scope) and of the kept tables it reads; null while one of them has never synced.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."freshness"."lag_seconds" IS 'Seconds from source_data_as_of to now (at query time).';
--> statement-breakpoint
COMMENT ON VIEW "analytics"."products" IS 'The product dimension: one row per supplier and SKU with its description and wine attributes (brand, varietal, vintage, appellation, bottle size, price) from fulfillment.products; a SKU only the inventory names has its description from there. Join it to any relation by sku (and supplier_id). Answers: what is SKU 1W003? Example: SELECT d.sku, p.description, d.days_of_cover FROM analytics.days_of_cover d JOIN analytics.products p USING (supplier_id, sku). One row per supplier_id and sku. A plain view: as of the last product sync.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."supplier_id" IS 'Supplier owning the product.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."sku" IS 'SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."description" IS 'Product description (product listing, else the inventory rows).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."brand_name" IS 'Brand name.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."fanciful_name" IS 'Fanciful name.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."varietal" IS 'Varietal.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."vintage" IS 'Vintage.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."appellation" IS 'Appellation.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."region_of_origin" IS 'Region of origin.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."country_of_origin_code" IS 'Country of origin code; only US is accepted at creation.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."alcohol_type_code" IS 'Alcohol type: SPARKLING, SPIRIT or STILL.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."alcohol_percentage" IS 'Alcohol percentage (a string in the product detail).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."bottle_size_ml" IS 'Bottle size in ML (a string in the product detail).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."units_per_case" IS 'Units per case (a string in the product detail).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."item_type_code" IS 'Item type: ACC (accessory), FOOD, GSET (gift set), CARD (greeting card), PACK (packaging), WINE (wine/sparkling), PTO (pick-to-order), INSERT; the value NotSet exists.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."retail_price" IS 'Retail price (number).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."deactivation_status" IS 'Deactivation status (enumerated; the value NotSet exists).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."products"."has_product_record" IS 'Whether fulfillment.products holds it (else only the inventory names it).';
--> statement-breakpoint
COMMENT ON VIEW "analytics"."return_rate_by_reason" IS 'Returns per account and return reason since the first synced record, with the units returned against all units the account shipped. Answers: why do orders come back? Example: SELECT return_reason_name, returns, units_returned, share_of_returned_units FROM analytics.return_rate_by_reason ORDER BY units_returned DESC. One row per account_number and return_reason_code. A plain view over analytics.shipped_units_monthly (kept by the worker: see analytics.freshness) and the synced tables it names.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_reason"."account_number" IS 'Account the returns were synced for.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_reason"."return_reason_code" IS 'Return reason code; '''' groups the rows without one.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_reason"."return_reason_name" IS 'Return reason name.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_reason"."returns" IS 'Returns giving this reason.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_reason"."units_returned" IS 'Units returned with this reason.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_reason"."units_damaged" IS 'Of these, units damaged.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_reason"."units_shipped" IS 'All units the account shipped (every SKU): the rate''s denominator.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_reason"."return_rate" IS 'units_returned / units_shipped (4 decimals).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_reason"."share_of_returned_units" IS 'This reason''s share of the account''s returned units (4 decimals).';
--> statement-breakpoint
COMMENT ON VIEW "analytics"."return_rate_by_sku" IS 'Return rate per account and SKU since the first synced record: units returned (return lines) over units shipped (shipment lines). Answers: which wines come back most? Example: SELECT sku, units_shipped, units_returned, return_rate FROM analytics.return_rate_by_sku WHERE units_shipped >= 50 ORDER BY return_rate DESC LIMIT 10. One row per account_number and sku. A plain view over analytics.shipped_units_monthly (kept by the worker: see analytics.freshness) and the synced tables it names.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_sku"."account_number" IS 'Account the shipments and returns were synced for.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_sku"."sku" IS 'SKU; '''' groups the rows without one.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_sku"."shipments" IS 'Shipments with a line of this SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_sku"."units_shipped" IS 'Units of this SKU shipped (sum of shipment line quantities).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_sku"."returns" IS 'Returns with a line of this SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_sku"."units_returned" IS 'Units of this SKU returned (sum of quantity_returned).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_sku"."units_damaged" IS 'Of the returned units, how many came back damaged (sum of quantity_damaged).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_sku"."return_rate" IS 'units_returned / units_shipped (4 decimals); null when nothing shipped.';
--> statement-breakpoint
COMMENT ON VIEW "analytics"."return_rate_by_warehouse" IS 'Return rate per account and warehouse since the first synced record: units returned to (ship-from) the warehouse over units shipped from it (warehouse from the order detail). Answers: does one warehouse see more returns? Example: SELECT warehouse_code, units_shipped, units_returned, return_rate FROM analytics.return_rate_by_warehouse ORDER BY return_rate DESC. One row per account_number and warehouse_code. A plain view over analytics.shipped_units_monthly (kept by the worker: see analytics.freshness) and the synced tables it names.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_warehouse"."account_number" IS 'Account the shipments and returns were synced for.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_warehouse"."warehouse_code" IS 'Warehouse (order detail for shipments, ship_from_warehouse_code for returns); '''' groups the rows without one.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_warehouse"."units_shipped" IS 'Units shipped from the warehouse.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_warehouse"."returns" IS 'Returns shipped from the warehouse.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_warehouse"."units_returned" IS 'Units returned.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_warehouse"."units_damaged" IS 'Of these, units damaged.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_by_warehouse"."return_rate" IS 'units_returned / units_shipped (4 decimals); null when nothing shipped.';
--> statement-breakpoint
COMMENT ON VIEW "analytics"."return_rate_monthly" IS 'Return rate per account and Pacific month: units returned that month (by the return''s return_date; a return without one is not counted) over units shipped that month. Answers: are returns rising or falling? Example: SELECT month, sum(units_returned)::numeric / nullif(sum(units_shipped), 0) FROM analytics.return_rate_monthly GROUP BY 1 ORDER BY 1. One row per account_number and month. A plain view over analytics.shipped_units_monthly (kept by the worker: see analytics.freshness) and the synced tables it names.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_monthly"."account_number" IS 'Account the shipments and returns were synced for.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_monthly"."month" IS 'First day of the Pacific month.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_monthly"."units_shipped" IS 'Units shipped that month (by ship date).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_monthly"."returns" IS 'Returns received that month (by return date).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_monthly"."units_returned" IS 'Units returned that month.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_monthly"."units_damaged" IS 'Of these, units damaged.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."return_rate_monthly"."return_rate" IS 'units_returned / units_shipped (4 decimals); null when nothing shipped.';
