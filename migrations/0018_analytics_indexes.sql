-- Indexes of the analytics materialized views (drizzle-kit does not declare them). Each has a unique
-- index on its key, which REFRESH MATERIALIZED VIEW CONCURRENTLY needs (readers are never blocked
-- by a refresh), and the indexes its documented questions filter on.
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
