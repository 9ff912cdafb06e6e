COMMENT ON TABLE "sync"."analytics_refreshes" IS 'When the sources of each analytics materialized view last changed and when it was last refreshed (src/analytics/refresh.ts). One row per view. Key: relation.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."relation" IS 'The materialized view, as schema.name (e.g. analytics.shipment_facts).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."changed_at" IS 'When a sync last changed one of its sources (or a view it reads was refreshed).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."refreshed_as_of" IS 'Start of its last successful refresh: every change committed before it is in the view. Stale while changed_at is later.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."last_duration_ms" IS 'How long the last successful refresh took, in milliseconds.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."last_error" IS 'Error of the last failed refresh; cleared by a successful one.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."last_error_at" IS 'When the last refresh failed.';
--> statement-breakpoint
COMMENT ON MATERIALIZED VIEW "analytics"."carrier_performance_weekly" IS 'Carrier performance per week of ship day (Monday-started Pacific weeks), over every account: shipments, delivered, exceptions, transit-time average, median and 90th percentile, SLA misses. Answers: is a carrier getting slower or less reliable? Example: SELECT week_start, carrier_name, median_transit_days, exception_rate FROM analytics.carrier_performance_weekly WHERE week_start >= current_date - 84 ORDER BY 1, 2. One row per week_start and carrier_name. Materialized: refreshed after the syncs that change its sources (at most every few minutes), so it can lag the tables by that much.';
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
COMMENT ON COLUMN "analytics"."carrier_performance_weekly"."with_sla_date" IS 'Of these, how many have an SLA date (order detail synced and giving one).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."carrier_performance_weekly"."delivered_after_sla" IS 'Of these, how many were delivered after their SLA date.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."carrier_performance_weekly"."exception_rate" IS 'had_exception / shipments (4 decimals).';
--> statement-breakpoint
COMMENT ON MATERIALIZED VIEW "analytics"."daily_inventory" IS 'On-hand stock per Pacific day, supplier, warehouse, sub-inventory and SKU at the end of the day, reaching back over the history the first load read. Days observed by the worker come from fulfillment.inventory_history; days before a row was first observed are reconstructed from fulfillment.inventory_activity (beginning and ending on-hand per day) and marked is_reconstructed. Answers: how did stock of a wine develop over the last months, per warehouse? Example: SELECT day, warehouse_code, sum(qty_on_hand) FROM analytics.daily_inventory WHERE sku = ''1W003'' AND day >= current_date - 90 GROUP BY 1, 2 ORDER BY 1, 2. One row per day and key. Materialized: refreshed after the syncs that change its sources (at most every few minutes), so it can lag the tables by that much.';
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
COMMENT ON VIEW "fulfillment"."inventory_current" IS 'View: current owned inventory per supplier, warehouse, sub-inventory and SKU, with when its quantities last changed and its stock-outs (from fulfillment.inventory_history). A stock-out is qty_available_to_sell reaching 0 or less, as the inventory.out_of_stock event counts it.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."supplier_id" IS 'Supplier the inventory belongs to (the scope of the snapshot).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."warehouse_code" IS 'Warehouse code: GLW (Glenwillow), WDI (Green Island), PSO (Paso Robles), SMA (Santa Maria), SHW (Willamette Valley), DAL (Dallas); owned inventory may also show MHT and AMC.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."warehouse_name" IS 'Warehouse name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."sub_inventory_code" IS 'Sub-inventory code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."sub_inventory_name" IS 'Sub-inventory name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."sku" IS 'The customer SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."description" IS 'Description.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."provider_sku" IS 'SKU assigned by the service.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."qty_on_hand" IS 'Quantity on hand (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."qty_on_orders" IS 'Quantity on orders (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."qty_on_ins" IS 'Quantity on inbound transfers (INs) (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."qty_available_to_sell" IS 'Quantity available to sell (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."qty_available_to_promise" IS 'Quantity available to promise (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."last_changed_at" IS 'When the quantities last changed: start of the current inventory_history version; null without history.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."is_out_of_stock" IS 'Whether qty_available_to_sell is 0 or less; null when the API gave no quantity.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."out_of_stock_since" IS 'While out of stock: when the last version with stock ended (or, if it never had stock, when it was first seen); null while in stock.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."stock_outs_30d" IS 'How many times qty_available_to_sell dropped to 0 or less from above 0 in the last 30 days (a row first seen at 0 has not dropped: not counted).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."vanished_at" IS 'When the row vanished from the owned-inventory snapshot (quantities then zeroed); null while present.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."synced_at" IS 'When fulfillment-sync last changed the inventory row.';
--> statement-breakpoint
COMMENT ON VIEW "analytics"."open_transfers_in" IS 'View: inbound transfers (INs) still open (DRAFT, SUBMITTED or PROCESSING) with their age, expected date and what is still to arrive. Answers: which INs are waiting, for how long, and are any overdue? Example: SELECT order_number, warehouse_code, status_code, age_days, qty_outstanding FROM analytics.open_transfers_in WHERE is_overdue ORDER BY age_days DESC. One row per supplier_id and order_number.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."open_transfers_in"."supplier_id" IS 'Supplier of the IN.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."open_transfers_in"."order_number" IS 'Order number of the IN.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."open_transfers_in"."reference_number" IS 'Reference number of the IN.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."open_transfers_in"."warehouse_code" IS 'Receiving warehouse.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."open_transfers_in"."warehouse_name" IS 'Receiving warehouse name.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."open_transfers_in"."status_code" IS 'IN status: DRAFT, SUBMITTED or PROCESSING.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."open_transfers_in"."status_name" IS 'IN status name.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."open_transfers_in"."created_at" IS 'When the IN was created (from its detail; null until fetched).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."open_transfers_in"."submitted_date" IS 'When the IN was submitted; null for a draft.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."open_transfers_in"."expected_date" IS 'When the goods are expected.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."open_transfers_in"."age_days" IS 'Whole days since submitted_date (else created_at), at query time.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."open_transfers_in"."is_overdue" IS 'Whether expected_date has passed (at query time); null without one.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."open_transfers_in"."line_count" IS 'Its line items (fulfillment.transfer_in_lines; 0 until the detail is fetched).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."open_transfers_in"."qty_ordered" IS 'Units ordered over its lines; null without lines.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."open_transfers_in"."qty_received" IS 'Units received so far over its lines; null without lines.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."open_transfers_in"."qty_outstanding" IS 'Units still to arrive (ordered minus received, not below 0); null without lines.';
--> statement-breakpoint
COMMENT ON MATERIALIZED VIEW "analytics"."order_lifecycle" IS 'One row per synced order (account_number, order_number): received, shipped and delivered times and the durations between, with warehouse, order type, service level and holds. The API has no order list: an order is here once a shipment or return names it. Answers: how long do orders take from receipt to shipping and to the door, per warehouse? Example: SELECT warehouse_code, percentile_cont(0.5) WITHIN GROUP (ORDER BY hours_to_ship) FROM analytics.order_lifecycle WHERE received_at >= now() - interval ''30 days'' GROUP BY 1. Materialized: refreshed after the syncs that change its sources (at most every few minutes), so it can lag the tables by that much.';
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
COMMENT ON MATERIALIZED VIEW "analytics"."return_rate_by_reason" IS 'Returns per account and return reason since the first synced record, with the units returned against all units the account shipped. Answers: why do orders come back? Example: SELECT return_reason_name, returns, units_returned, share_of_returned_units FROM analytics.return_rate_by_reason ORDER BY units_returned DESC. One row per account_number and return_reason_code. Materialized: refreshed after the syncs that change its sources (at most every few minutes), so it can lag the tables by that much.';
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
COMMENT ON MATERIALIZED VIEW "analytics"."return_rate_by_sku" IS 'Return rate per account and SKU since the first synced record: units returned (return lines) over units shipped (shipment lines). Answers: which wines come back most? Example: SELECT sku, units_shipped, units_returned, return_rate FROM analytics.return_rate_by_sku WHERE units_shipped >= 50 ORDER BY return_rate DESC LIMIT 10. One row per account_number and sku. Materialized: refreshed after the syncs that change its sources (at most every few minutes), so it can lag the tables by that much.';
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
COMMENT ON MATERIALIZED VIEW "analytics"."return_rate_by_warehouse" IS 'Return rate per account and warehouse since the first synced record: units returned to (ship-from) the warehouse over units shipped from it (warehouse from the order detail). Answers: does one warehouse see more returns? Example: SELECT warehouse_code, units_shipped, units_returned, return_rate FROM analytics.return_rate_by_warehouse ORDER BY return_rate DESC. One row per account_number and warehouse_code. Materialized: refreshed after the syncs that change its sources (at most every few minutes), so it can lag the tables by that much.';
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
COMMENT ON MATERIALIZED VIEW "analytics"."shipment_facts" IS 'One row per shipment (container_id) with its scans, transit time, exception and return flags and its order''s warehouse, service level, SLA and ship-to region. Answers: which shipments are late, slow or in trouble, per carrier, warehouse or account? Example: SELECT carrier_name, count(*) FILTER (WHERE delivered_after_sla) AS late, avg(transit_days) FROM analytics.shipment_facts WHERE ship_day >= current_date - 28 GROUP BY 1. No consumer name, email, phone or street line. Materialized: refreshed after the syncs that change its sources (at most every few minutes), so it can lag the tables by that much.';
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
COMMENT ON COLUMN "analytics"."shipment_facts"."sla_status_code" IS 'SLA status code of the order (order detail), as the API gives it.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."sla_status_name" IS 'SLA status name of the order (order detail).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."sla_date" IS 'SLA date of the order (order detail); null without one. The spec does not say whether it bounds shipping or delivery: both comparisons are given.';
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
COMMENT ON COLUMN "analytics"."shipment_facts"."shipped_after_sla" IS 'Whether ship_date is after sla_date; null without either.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."shipment_facts"."delivered_after_sla" IS 'Whether delivered_at is after sla_date; null while not delivered or without sla_date.';
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
COMMENT ON MATERIALIZED VIEW "analytics"."stock_out_spells" IS 'Stock-out spells per supplier, warehouse, sub-inventory and SKU from fulfillment.inventory_history: from qty_available_to_sell falling to 0 or less after being above 0, until it is above 0 again. A row first seen at 0 starts no spell (when it ran out is unknown). Answers: what ran out, when and for how long? Example: SELECT sku, warehouse_code, count(*), sum(coalesce(ended_at, now()) - started_at) FROM analytics.stock_out_spells WHERE started_at >= now() - interval ''90 days'' GROUP BY 1, 2. One row per key and started_at. Materialized: refreshed after the syncs that change its sources (at most every few minutes), so it can lag the tables by that much.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."supplier_id" IS 'Supplier the inventory belongs to.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."warehouse_code" IS 'Warehouse code.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."sub_inventory_code" IS 'Sub-inventory code.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."sku" IS 'SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."started_at" IS 'When qty_available_to_sell was first seen at 0 or less after being above 0 (detection time).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."ended_at" IS 'When it was first seen above 0 again; null while the spell lasts.';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."is_ongoing" IS 'Whether the spell still lasts (at the last refresh).';
--> statement-breakpoint
COMMENT ON COLUMN "analytics"."stock_out_spells"."duration_hours" IS 'Hours from started_at to ended_at (2 decimals); null while ongoing (use coalesce(ended_at, now())).';
