COMMENT ON COLUMN "fulfillment"."orders"."raw" IS 'The order detail as received (header, lines, holds, messages, addresses and the rest), including members the spec does not detail.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipments"."raw" IS 'The shipment update as received (header, lineItems and events), including members the spec does not detail.';
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
COMMENT ON COLUMN "fulfillment"."inventory_current"."stock_outs_30d" IS 'How many times qty_available_to_sell dropped to 0 or less (or was first seen so) in the last 30 days.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."vanished_at" IS 'When the row vanished from the owned-inventory snapshot (quantities then zeroed); null while present.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_current"."synced_at" IS 'When fulfillment-sync last changed the inventory row.';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment"."invoice_balances" IS 'View: invoices with what is still owed, their age and an aging bucket. One row per invoice_number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."invoice_balances"."invoice_number" IS 'Invoice number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."invoice_balances"."account_number" IS 'Account number of the invoice.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."invoice_balances"."customer_name" IS 'Customer name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."invoice_balances"."invoice_type" IS 'Invoice type: DIRECT, STORAGE, RETURNS, CARRIER or OUT.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."invoice_balances"."invoice_date" IS 'Invoice date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."invoice_balances"."order_count" IS 'Number of orders on the invoice (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."invoice_balances"."total_invoice_amount" IS 'Total invoice amount (number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."invoice_balances"."payments_received" IS 'Payments received (number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."invoice_balances"."balance_due" IS 'Balance due (number).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."invoice_balances"."is_open" IS 'Whether a balance is still due (balance_due above 0).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."invoice_balances"."age_days" IS 'Whole days elapsed since invoice_date (24-hour periods up to now(), at query time); null without invoice_date.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."invoice_balances"."aging_bucket" IS 'Age of an open invoice: ''0-30'', ''31-60'', ''61-90'' or ''90+'' days; null when not open.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."invoice_balances"."synced_at" IS 'When fulfillment-sync last changed the invoice row.';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment"."open_returns" IS 'View: returns not yet resolved (processing_status_code other than RESOLVED, or none), with their age and returned quantities. One row per ship_return_id.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."ship_return_id" IS 'Return identifier (integer).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."account_number" IS 'Account the return was synced for.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."order_number" IS 'Order number of the customer.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."customer_name" IS 'Customer name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."processing_status_code" IS 'Processing status: NEW or IN_PROCESS (RESOLVED returns are not listed).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."processing_status_name" IS 'Return processing status name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."return_reason_code" IS 'Return reason code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."return_reason_name" IS 'Return reason name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."ship_from_warehouse_code" IS 'Warehouse the order shipped from: GLW (Glenwillow), WDI (Green Island), PSO (Paso Robles), SMA (Santa Maria), SHW (Willamette Valley), DAL (Dallas).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."carrier_code" IS 'Carrier code.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."tracking_number" IS 'Carrier tracking number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."ship_date" IS 'Ship date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."return_date" IS 'Return date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."age_days" IS 'Whole days elapsed since return_date (24-hour periods up to now(), at query time); null without return_date.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."line_count" IS 'Number of return lines (fulfillment.return_lines).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."quantity_returned" IS 'Sum of quantity_returned over the return lines; null without lines.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."quantity_damaged" IS 'Sum of quantity_damaged over the return lines; null without lines.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."quantity_missing" IS 'Sum of quantity_missing over the return lines; null without lines.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."open_returns"."synced_at" IS 'When fulfillment-sync last changed the return row.';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment"."shipment_status" IS 'View: every shipment with its current status, its latest tracking scan and its order (from the order detail). One row per container_id.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."container_id" IS 'Shipment container ID.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."account_number" IS 'Account the shipment was synced for.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."order_number" IS 'Order number of the customer.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."status_code" IS 'Current shipment status: DELIVERED, EXCEPTION, IN_TRANSIT, RETURNED, SHIPPED.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."status_description" IS 'Status description.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."ship_date" IS 'Ship date (date-time).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."carrier_name" IS 'Carrier name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."tracking_number" IS 'Carrier tracking number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."tracking_number_url" IS 'URL of the tracking number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."last_scan_at" IS 'Time of the latest tracking scan (fulfillment.shipment_events); null before the first scan.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."last_scan_description" IS 'Description of the latest tracking scan.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."last_scan_city" IS 'City of the latest tracking scan.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."last_scan_state_or_province" IS 'State or province of the latest tracking scan.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."order_status_code" IS 'Status of the shipment''s order (fulfillment.orders); null until the order detail is synced.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."order_status_name" IS 'Status name of the shipment''s order.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."customer_name" IS 'Customer name on the shipment''s order.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."warehouse_code" IS 'Warehouse of the order that shipped it; null until the order detail is synced.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."warehouse_name" IS 'Warehouse name of the order.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."order_created_at" IS 'When the order was created (order creation_date).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."requested_ship_date" IS 'Requested ship date (date-time): a future date; orders are held until that date, then processed.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipment_status"."synced_at" IS 'When fulfillment-sync last changed the shipment row.';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment"."shipments_per_day" IS 'View: shipments per ship day (America/Los_Angeles, the API''s zone), warehouse and account, with units and how many are now delivered, in exception or returned. One row per ship_day, warehouse_code, account_number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipments_per_day"."ship_day" IS 'Calendar day of ship_date in America/Los_Angeles.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipments_per_day"."warehouse_code" IS 'Warehouse of the shipped orders (from the order detail); null groups the shipments whose order detail is not synced yet.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipments_per_day"."warehouse_name" IS 'Warehouse name.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipments_per_day"."account_number" IS 'Account the shipments were synced for.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipments_per_day"."shipments" IS 'Number of shipments (containers).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipments_per_day"."units" IS 'Sum of the shipment line quantities.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipments_per_day"."delivered" IS 'Of these shipments, how many are DELIVERED now.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipments_per_day"."exceptions" IS 'Of these shipments, how many are in EXCEPTION now.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipments_per_day"."returned" IS 'Of these shipments, how many are RETURNED now.';
--> statement-breakpoint
COMMENT ON VIEW "fulfillment"."sync_health" IS 'View: sync health per stream and scope (from schema sync, which readers cannot read directly): last success, lag, last error, and the runs, rows and rejected records of the last 24 hours. One row per stream and scope that has a cursor or a run.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."stream" IS 'Stream name: products, inventory, inventory_activity, transfers_in, transfers_out, shipments, returns, invoices or orders.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."scope" IS 'Stream scope: a supplier id or an account number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."last_success_at" IS 'When the last successful run of this stream and scope finished; null if none yet.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."lag_seconds" IS 'Seconds from last_success_at to now (at query time): how stale the data of this stream and scope may be; null if it never succeeded.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."cursor_position_at" IS 'Time-window streams: the end of the last window stored (sync.cursors.position_at); null for snapshot and detail streams.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."last_run_at" IS 'When the most recent run (any outcome) started.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."last_run_status" IS 'Outcome of the most recent run: ''running'', ''succeeded'', ''partial'', ''failed'' or ''skipped''.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."last_error" IS 'Error text of the most recent failed run; null if none ever failed.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."last_error_at" IS 'When that failed run finished.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."is_failing" IS 'Whether the most recent failed run is newer than the last success.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."runs_24h" IS 'Number of the runs started in the last 24 hours (0 when none).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."failed_runs_24h" IS 'Number of failed runs among those of the runs started in the last 24 hours (0 when none).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."rows_24h" IS 'Rows inserted plus rows updated of the runs started in the last 24 hours (0 when none).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."rejected_24h" IS 'Records rejected (see sync.rejected_records) of the runs started in the last 24 hours (0 when none).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."events_24h" IS 'Events derived of the runs started in the last 24 hours (0 when none).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."api_calls_24h" IS 'Upstream API calls of the runs started in the last 24 hours (0 when none).';
