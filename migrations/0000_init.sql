CREATE SCHEMA "fulfillment";
--> statement-breakpoint
CREATE SCHEMA "sync";
--> statement-breakpoint
CREATE TABLE "sync"."backfill_windows" (
	"backfill_id" text NOT NULL,
	"stream" text NOT NULL,
	"scope" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"window_end" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone DEFAULT now() NOT NULL,
	"run_id" bigint,
	"fetched" integer DEFAULT 0 NOT NULL,
	"inserted" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "backfill_windows_pk" PRIMARY KEY("backfill_id","stream","scope","window_start","window_end")
);
--> statement-breakpoint
CREATE TABLE "sync"."events" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"type" text NOT NULL,
	"subject_kind" text NOT NULL,
	"subject_key" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"detected_at" timestamp with time zone NOT NULL,
	"data" jsonb NOT NULL,
	"stream" text,
	"scope" text,
	"run_id" bigint,
	"suppressed" boolean DEFAULT false NOT NULL,
	"dispatched_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."inventory" (
	"supplier_id" text NOT NULL,
	"warehouse_code" text NOT NULL,
	"sub_inventory_code" text NOT NULL,
	"sku" text NOT NULL,
	"warehouse_name" text,
	"description" text,
	"provider_sku" text,
	"sub_inventory_name" text,
	"qty_on_hand" integer,
	"qty_on_orders" integer,
	"qty_on_ins" integer,
	"qty_available_to_sell" integer,
	"qty_available_to_promise" integer,
	"vanished_at" timestamp with time zone,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	CONSTRAINT "inventory_pk" PRIMARY KEY("supplier_id","warehouse_code","sub_inventory_code","sku")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."inventory_history" (
	"supplier_id" text NOT NULL,
	"warehouse_code" text NOT NULL,
	"sub_inventory_code" text NOT NULL,
	"sku" text NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_to" timestamp with time zone,
	"qty_on_hand" integer,
	"qty_on_orders" integer,
	"qty_on_ins" integer,
	"qty_available_to_sell" integer,
	"qty_available_to_promise" integer,
	"run_id" bigint,
	CONSTRAINT "inventory_history_pk" PRIMARY KEY("supplier_id","warehouse_code","sub_inventory_code","sku","valid_from")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."inventory_activity" (
	"supplier_id" text NOT NULL,
	"activity_date" date NOT NULL,
	"warehouse_code" text NOT NULL,
	"sub_inventory_code" text NOT NULL,
	"sku" text NOT NULL,
	"account_number" text,
	"warehouse_name" text,
	"sub_inventory_name" text,
	"description" text,
	"provider_sku" text,
	"sku_type" text,
	"beginning_on_hand" integer,
	"ending_on_hand" integer,
	"qty_received" integer,
	"qty_transferred_in" integer,
	"qty_transferred_out" integer,
	"qty_moved_in" integer,
	"qty_moved_out" integer,
	"qty_shipped" integer,
	"qty_adjusted" integer,
	"qty_damaged" integer,
	"qty_returned" integer,
	"qty_kitted" integer,
	"qty_other" integer,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	CONSTRAINT "inventory_activity_pk" PRIMARY KEY("supplier_id","activity_date","warehouse_code","sub_inventory_code","sku")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."invoices" (
	"invoice_number" text PRIMARY KEY NOT NULL,
	"account_number" text,
	"customer_name" text,
	"invoice_type" text,
	"order_count" integer,
	"invoice_date" timestamp with time zone,
	"class_invoice_amount" numeric,
	"total_invoice_amount" numeric,
	"payments_received" numeric,
	"balance_due" numeric,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."order_addresses" (
	"account_number" text NOT NULL,
	"order_number" text NOT NULL,
	"role" text NOT NULL,
	"position" integer NOT NULL,
	"is_residential_address" boolean NOT NULL,
	"first_name" text,
	"middle_name" text,
	"last_name" text,
	"company_name" text,
	"address1" text,
	"address2" text,
	"address3" text,
	"city" text,
	"state_code" text,
	"state_name" text,
	"postal_code" text,
	"country_code" text,
	"country_name" text,
	"delivery_status_code" text,
	"delivery_status_name" text,
	"delivery_address_type_code" text,
	"delivery_address_type_name" text,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	CONSTRAINT "order_addresses_pk" PRIMARY KEY("account_number","order_number","role","position"),
	CONSTRAINT "order_addresses_role_check" CHECK ("fulfillment"."order_addresses"."role" in ('sold_to', 'ship_to', 'deliver_to'))
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."order_holds" (
	"account_number" text NOT NULL,
	"order_number" text NOT NULL,
	"hold_key" text NOT NULL,
	"hold_status" text,
	"hold_name" text,
	"hold_description" text,
	"hold_comment" text,
	"release_reason" text,
	"release_comment" text,
	"expiration_date" timestamp with time zone,
	"release_date" timestamp with time zone,
	"creation_date" timestamp with time zone NOT NULL,
	"is_directly_releasable" boolean NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	CONSTRAINT "order_holds_pk" PRIMARY KEY("account_number","order_number","hold_key")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."order_lines" (
	"account_number" text NOT NULL,
	"order_number" text NOT NULL,
	"line_number" text NOT NULL,
	"component_number" text NOT NULL,
	"inventory_item_id" text,
	"sku" text,
	"description" text,
	"is_shippable" boolean,
	"quantity_ordered" integer,
	"quantity_reserved" integer,
	"quantity_shipped" integer,
	"item_shortage" integer,
	"uom" text,
	"unit_price" numeric,
	"sub_inventory_code" text,
	"sub_inventory_name" text,
	"is_bom_component" boolean,
	"vas_order_personalizations" jsonb,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	CONSTRAINT "order_lines_pk" PRIMARY KEY("account_number","order_number","line_number","component_number")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."order_messages" (
	"account_number" text NOT NULL,
	"order_number" text NOT NULL,
	"message_key" text NOT NULL,
	"message_type" text,
	"message" text,
	"message_time" timestamp with time zone NOT NULL,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	CONSTRAINT "order_messages_pk" PRIMARY KEY("account_number","order_number","message_key")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."orders" (
	"account_number" text NOT NULL,
	"order_number" text NOT NULL,
	"customer_name" text,
	"warehouse_code" text,
	"warehouse_name" text,
	"provider_order_number" text,
	"received_date" timestamp with time zone,
	"creation_date" timestamp with time zone NOT NULL,
	"customer_order_date" timestamp with time zone,
	"requested_ship_date" timestamp with time zone,
	"fulfillment_date" timestamp with time zone,
	"shipped_date" timestamp with time zone,
	"batch_number" text,
	"order_type_code" text,
	"order_type_name" text,
	"requested_service_level" text,
	"planned_service_level" text,
	"order_status_code" text,
	"order_status_name" text,
	"collapsed_status" text,
	"notification_email" text,
	"notification_phone" text,
	"gift_message" text,
	"shipping_instructions" text,
	"compliance_route" text,
	"fulfillment_route" text,
	"packing_slip_code" text,
	"packing_slip_name" text,
	"is_onsite_purchase" boolean NOT NULL,
	"is_line_haul" boolean NOT NULL,
	"is_editable" boolean NOT NULL,
	"is_cancellable" boolean NOT NULL,
	"is_back_ordered" boolean NOT NULL,
	"has_inventory_hold" boolean NOT NULL,
	"sla_status_code" text,
	"sla_status_name" text,
	"sla_date" timestamp with time zone,
	"notification_template_code" text,
	"notification_template_name" text,
	"packaging_type_code" text,
	"packaging_type_name" text,
	"vas_order_personalizations" jsonb,
	"packages" jsonb,
	"contents" jsonb,
	"trackings" jsonb,
	"notes" jsonb,
	"billings" jsonb,
	"account_payable_headers" jsonb,
	"account_payable_lines" jsonb,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	CONSTRAINT "orders_pk" PRIMARY KEY("account_number","order_number")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."product_bom_inventories" (
	"supplier_id" text NOT NULL,
	"sku" text NOT NULL,
	"warehouse_code" text NOT NULL,
	"sub_inventory_code" text NOT NULL,
	"warehouse_name" text,
	"provider_sku" text,
	"record_sku" text,
	"description" text,
	"items_per_gset" integer,
	"gsets_onhand" integer,
	"items_in_gsets" integer,
	"gsets_reserved" integer,
	"items_in_reserved_gsets" integer,
	"gsets_available" integer,
	"items_in_available_gsets" integer,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	CONSTRAINT "product_bom_inventories_pk" PRIMARY KEY("supplier_id","sku","warehouse_code","sub_inventory_code")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."product_pto_components" (
	"supplier_id" text NOT NULL,
	"sku" text NOT NULL,
	"component_number" integer NOT NULL,
	"provider_sku" text,
	"record_sku" text,
	"description" text,
	"quantity" integer,
	"retail_price" numeric,
	"weight" numeric,
	"units_of_measure" text,
	"item_type_code" text,
	"item_type_name" text,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	CONSTRAINT "product_pto_components_pk" PRIMARY KEY("supplier_id","sku","component_number")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."product_selling_infos" (
	"supplier_id" text NOT NULL,
	"sku" text NOT NULL,
	"seller_account_number" text NOT NULL,
	"seller_name" text,
	"provider_sku" text,
	"record_sku" text,
	"description" text,
	"retail_price" numeric,
	"supplier_name" text,
	"supplier_payment" numeric,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	CONSTRAINT "product_selling_infos_pk" PRIMARY KEY("supplier_id","sku","seller_account_number")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."products" (
	"supplier_id" text NOT NULL,
	"sku" text NOT NULL,
	"account_number" text,
	"description" text,
	"provider_sku" text,
	"supplier_name" text,
	"account_name" text,
	"item_type_code" text,
	"item_type_name" text,
	"pack_slip_description" text,
	"is_owner" boolean,
	"upc_code" text,
	"brand_name" text,
	"fanciful_name" text,
	"appellation" text,
	"varietal" text,
	"vintage" text,
	"alcohol_type_code" text,
	"alcohol_percentage" text,
	"bottle_size_ml" text,
	"units_per_case" text,
	"vineyard_designation" text,
	"ttb_approval_number" text,
	"country_of_origin_code" text,
	"country_of_origin_name" text,
	"region_of_origin" text,
	"weight" numeric,
	"units_of_measure" text,
	"is_available_for_sourcing" boolean,
	"additional_attributes" text,
	"is_bid_stickered" boolean,
	"retail_price" numeric,
	"deactivation_status" text,
	"vas_code" text,
	"vas_name" text,
	"orientation" text,
	"location" text,
	"detail_fetched_at" timestamp with time zone,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	"detail_raw" jsonb,
	CONSTRAINT "products_pk" PRIMARY KEY("supplier_id","sku")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."return_lines" (
	"ship_return_id" bigint NOT NULL,
	"line_number" integer NOT NULL,
	"component_number" integer NOT NULL,
	"shipment_key" bigint,
	"sku" text,
	"sku_description" text,
	"provider_sku" text,
	"quantity_ordered" integer,
	"quantity_shipped" integer,
	"quantity_returned" integer,
	"quantity_damaged" integer,
	"quantity_missing" integer,
	"vas_order_personalizations" jsonb,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	CONSTRAINT "return_lines_pk" PRIMARY KEY("ship_return_id","line_number","component_number")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."returns" (
	"ship_return_id" bigint PRIMARY KEY NOT NULL,
	"account_number" text NOT NULL,
	"shipment_key" bigint,
	"customer_name" text,
	"provider_order_number" text,
	"order_number" text,
	"order_type_code" text,
	"order_type_name" text,
	"ship_from_warehouse_code" text,
	"consumer_first_name" text,
	"consumer_last_name" text,
	"consumer_address1" text,
	"consumer_address2" text,
	"consumer_city" text,
	"consumer_state" text,
	"consumer_zip_code" text,
	"notification_email_address" text,
	"notification_phone_number" text,
	"wms_carrier_code" text,
	"carrier_code" text,
	"tracking_number" text,
	"tracking_number_url" text,
	"tracking_status_url" text,
	"return_reason_code" text,
	"return_reason_name" text,
	"processing_status_code" text,
	"processing_status_name" text,
	"resolution_code" text,
	"resolution_name" text,
	"ship_date" timestamp with time zone,
	"return_date" timestamp with time zone,
	"has_personalizations" boolean,
	"vas_order_personalizations" jsonb,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."shipment_events" (
	"container_id" text NOT NULL,
	"event_key" text NOT NULL,
	"event_time" timestamp with time zone,
	"city" text,
	"state_or_province" text,
	"description" text,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	CONSTRAINT "shipment_events_pk" PRIMARY KEY("container_id","event_key")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."shipment_lines" (
	"container_id" text NOT NULL,
	"line_number" integer NOT NULL,
	"sku" text,
	"quantity" integer,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	CONSTRAINT "shipment_lines_pk" PRIMARY KEY("container_id","line_number")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."shipments" (
	"container_id" text PRIMARY KEY NOT NULL,
	"account_number" text NOT NULL,
	"order_number" text,
	"ship_date" timestamp with time zone,
	"carrier_name" text,
	"tracking_number" text,
	"tracking_number_url" text,
	"status_code" text,
	"status_description" text,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb
);
--> statement-breakpoint
CREATE TABLE "sync"."cursors" (
	"stream" text NOT NULL,
	"scope" text NOT NULL,
	"position_at" timestamp with time zone,
	"position" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_success_at" timestamp with time zone,
	"last_run_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "cursors_pk" PRIMARY KEY("stream","scope")
);
--> statement-breakpoint
CREATE TABLE "sync"."rejected_records" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" bigint,
	"stream" text NOT NULL,
	"scope" text NOT NULL,
	"record_key" text,
	"reason" text NOT NULL,
	"raw" jsonb,
	"rejected_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sync"."runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"stream" text NOT NULL,
	"scope" text NOT NULL,
	"mode" text DEFAULT 'incremental' NOT NULL,
	"backfill_id" text,
	"window_start" timestamp with time zone,
	"window_end" timestamp with time zone,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"status" text DEFAULT 'running' NOT NULL,
	"fetched" integer DEFAULT 0 NOT NULL,
	"inserted" integer DEFAULT 0 NOT NULL,
	"updated" integer DEFAULT 0 NOT NULL,
	"unchanged" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"events" integer DEFAULT 0 NOT NULL,
	"api_calls" integer DEFAULT 0 NOT NULL,
	"error" text,
	CONSTRAINT "runs_status_check" CHECK ("sync"."runs"."status" in ('running', 'succeeded', 'partial', 'failed', 'skipped')),
	CONSTRAINT "runs_mode_check" CHECK ("sync"."runs"."mode" in ('incremental', 'backfill'))
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."transfer_in_lines" (
	"supplier_id" text NOT NULL,
	"order_number" text NOT NULL,
	"line_number" integer NOT NULL,
	"header_row_id" text,
	"inventory_item_id" text,
	"provider_sku" text,
	"sku" text,
	"sku_description" text,
	"qty_ordered" integer,
	"qty_received" integer,
	"sub_inventory_code" text,
	"sub_inventory_name" text,
	"creation_date" timestamp with time zone,
	"created_by" text,
	"last_update_date" timestamp with time zone,
	"last_updated_by" text,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	CONSTRAINT "transfer_in_lines_pk" PRIMARY KEY("supplier_id","order_number","line_number")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."transfer_in_notes" (
	"supplier_id" text NOT NULL,
	"order_number" text NOT NULL,
	"note_key" text NOT NULL,
	"type_code" text,
	"note_timestamp" timestamp with time zone,
	"note_text" text,
	"creation_date" timestamp with time zone,
	"created_by" text,
	"last_update_date" timestamp with time zone,
	"last_updated_by" text,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	CONSTRAINT "transfer_in_notes_pk" PRIMARY KEY("supplier_id","order_number","note_key")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."transfers_in" (
	"supplier_id" text NOT NULL,
	"order_number" text NOT NULL,
	"row_id" bigint,
	"supplier_name" text,
	"warehouse_code" text,
	"warehouse_name" text,
	"reference_number" text,
	"submitted_date" timestamp with time zone,
	"status_code" text,
	"status_name" text,
	"is_cancellable" boolean,
	"is_editable" boolean,
	"delivery_method_code" text,
	"delivery_method_name" text,
	"pickup_site_id" text,
	"pickup_site_code" text,
	"pickup_site_line1" text,
	"pickup_site_line2" text,
	"pickup_site_city" text,
	"pickup_site_state_code" text,
	"pickup_site_postal_code" text,
	"pickup_site_country_code" text,
	"expected_date" timestamp with time zone,
	"creation_date" timestamp with time zone,
	"created_by" text,
	"last_update_date" timestamp with time zone,
	"last_updated_by" text,
	"pickup_site_phone" text,
	"pickup_site_fax" text,
	"closed_date" timestamp with time zone,
	"notification_status_code" text,
	"notification_status_name" text,
	"notification_status_message" text,
	"detail_fetched_at" timestamp with time zone,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	"detail_raw" jsonb,
	CONSTRAINT "transfers_in_pk" PRIMARY KEY("supplier_id","order_number")
);
--> statement-breakpoint
CREATE TABLE "fulfillment"."transfers_out" (
	"supplier_id" text NOT NULL,
	"order_number" text NOT NULL,
	"supplier_name" text,
	"warehouse_code" text,
	"warehouse_name" text,
	"reference_number" text,
	"ordered_date" timestamp with time zone,
	"requested_priority" text,
	"request_date" timestamp with time zone,
	"status_code" text,
	"status" text,
	"created_by" text,
	"is_editable" boolean,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb,
	CONSTRAINT "transfers_out_pk" PRIMARY KEY("supplier_id","order_number")
);
--> statement-breakpoint
CREATE TABLE "sync"."webhook_deliveries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"endpoint_id" text NOT NULL,
	"event_id" text NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"response_code" integer,
	"duration_ms" integer,
	"error" text,
	"response_body" text,
	"attempted_at" timestamp with time zone,
	"next_attempt_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "webhook_deliveries_status_check" CHECK ("sync"."webhook_deliveries"."status" in ('pending', 'succeeded', 'failed', 'gave_up'))
);
--> statement-breakpoint
CREATE TABLE "sync"."webhook_endpoints" (
	"id" text PRIMARY KEY DEFAULT ('ep_' || replace(gen_random_uuid()::text, '-', '')) NOT NULL,
	"url" text NOT NULL,
	"description" text,
	"event_types" text[] DEFAULT '{}'::text[] NOT NULL,
	"secret" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"failing_since" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sync"."rejected_records" ADD CONSTRAINT "rejected_records_run_id_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "sync"."runs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync"."webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "sync"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync"."webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "sync"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "events_seq_idx" ON "sync"."events" USING btree ("seq");--> statement-breakpoint
CREATE INDEX "events_type_occurred_at_idx" ON "sync"."events" USING btree ("type","occurred_at");--> statement-breakpoint
CREATE INDEX "events_occurred_at_idx" ON "sync"."events" USING btree ("occurred_at");--> statement-breakpoint
CREATE INDEX "events_detected_at_idx" ON "sync"."events" USING btree ("detected_at");--> statement-breakpoint
CREATE INDEX "events_subject_idx" ON "sync"."events" USING btree ("subject_kind","subject_key");--> statement-breakpoint
CREATE INDEX "events_undispatched_idx" ON "sync"."events" USING btree ("seq") WHERE "sync"."events"."dispatched_at" is null and not "sync"."events"."suppressed";--> statement-breakpoint
CREATE INDEX "inventory_sku_idx" ON "fulfillment"."inventory" USING btree ("sku");--> statement-breakpoint
CREATE INDEX "inventory_warehouse_code_idx" ON "fulfillment"."inventory" USING btree ("warehouse_code");--> statement-breakpoint
CREATE UNIQUE INDEX "inventory_history_open_version_idx" ON "fulfillment"."inventory_history" USING btree ("supplier_id","warehouse_code","sub_inventory_code","sku") WHERE "fulfillment"."inventory_history"."valid_to" is null;--> statement-breakpoint
CREATE INDEX "inventory_history_sku_valid_from_idx" ON "fulfillment"."inventory_history" USING btree ("sku","valid_from");--> statement-breakpoint
CREATE INDEX "inventory_activity_activity_date_idx" ON "fulfillment"."inventory_activity" USING btree ("activity_date");--> statement-breakpoint
CREATE INDEX "inventory_activity_sku_activity_date_idx" ON "fulfillment"."inventory_activity" USING btree ("sku","activity_date");--> statement-breakpoint
CREATE INDEX "invoices_account_invoice_date_idx" ON "fulfillment"."invoices" USING btree ("account_number","invoice_date");--> statement-breakpoint
CREATE INDEX "invoices_invoice_date_idx" ON "fulfillment"."invoices" USING btree ("invoice_date");--> statement-breakpoint
CREATE INDEX "invoices_invoice_type_idx" ON "fulfillment"."invoices" USING btree ("invoice_type");--> statement-breakpoint
CREATE INDEX "order_lines_sku_idx" ON "fulfillment"."order_lines" USING btree ("sku");--> statement-breakpoint
CREATE INDEX "orders_order_number_idx" ON "fulfillment"."orders" USING btree ("order_number");--> statement-breakpoint
CREATE INDEX "orders_provider_order_number_idx" ON "fulfillment"."orders" USING btree ("provider_order_number");--> statement-breakpoint
CREATE INDEX "orders_creation_date_idx" ON "fulfillment"."orders" USING btree ("creation_date");--> statement-breakpoint
CREATE INDEX "orders_shipped_date_idx" ON "fulfillment"."orders" USING btree ("shipped_date");--> statement-breakpoint
CREATE INDEX "orders_order_status_code_idx" ON "fulfillment"."orders" USING btree ("order_status_code");--> statement-breakpoint
CREATE INDEX "product_pto_components_record_sku_idx" ON "fulfillment"."product_pto_components" USING btree ("record_sku");--> statement-breakpoint
CREATE INDEX "products_sku_idx" ON "fulfillment"."products" USING btree ("sku");--> statement-breakpoint
CREATE INDEX "products_item_type_code_idx" ON "fulfillment"."products" USING btree ("item_type_code");--> statement-breakpoint
CREATE INDEX "return_lines_sku_idx" ON "fulfillment"."return_lines" USING btree ("sku");--> statement-breakpoint
CREATE INDEX "returns_account_return_date_idx" ON "fulfillment"."returns" USING btree ("account_number","return_date");--> statement-breakpoint
CREATE INDEX "returns_return_date_idx" ON "fulfillment"."returns" USING btree ("return_date");--> statement-breakpoint
CREATE INDEX "returns_ship_date_idx" ON "fulfillment"."returns" USING btree ("ship_date");--> statement-breakpoint
CREATE INDEX "returns_processing_status_code_idx" ON "fulfillment"."returns" USING btree ("processing_status_code");--> statement-breakpoint
CREATE INDEX "returns_order_number_idx" ON "fulfillment"."returns" USING btree ("order_number");--> statement-breakpoint
CREATE INDEX "returns_tracking_number_idx" ON "fulfillment"."returns" USING btree ("tracking_number");--> statement-breakpoint
CREATE INDEX "shipment_events_event_time_idx" ON "fulfillment"."shipment_events" USING btree ("event_time");--> statement-breakpoint
CREATE INDEX "shipment_lines_sku_idx" ON "fulfillment"."shipment_lines" USING btree ("sku");--> statement-breakpoint
CREATE INDEX "shipments_account_ship_date_idx" ON "fulfillment"."shipments" USING btree ("account_number","ship_date");--> statement-breakpoint
CREATE INDEX "shipments_ship_date_idx" ON "fulfillment"."shipments" USING btree ("ship_date");--> statement-breakpoint
CREATE INDEX "shipments_status_code_idx" ON "fulfillment"."shipments" USING btree ("status_code");--> statement-breakpoint
CREATE INDEX "shipments_order_number_idx" ON "fulfillment"."shipments" USING btree ("order_number");--> statement-breakpoint
CREATE INDEX "shipments_tracking_number_idx" ON "fulfillment"."shipments" USING btree ("tracking_number");--> statement-breakpoint
CREATE INDEX "rejected_records_stream_scope_idx" ON "sync"."rejected_records" USING btree ("stream","scope","rejected_at");--> statement-breakpoint
CREATE INDEX "rejected_records_run_id_idx" ON "sync"."rejected_records" USING btree ("run_id");--> statement-breakpoint
CREATE INDEX "runs_stream_scope_started_at_idx" ON "sync"."runs" USING btree ("stream","scope","started_at");--> statement-breakpoint
CREATE INDEX "runs_started_at_idx" ON "sync"."runs" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "runs_status_idx" ON "sync"."runs" USING btree ("status","started_at");--> statement-breakpoint
CREATE INDEX "transfer_in_lines_sku_idx" ON "fulfillment"."transfer_in_lines" USING btree ("sku");--> statement-breakpoint
CREATE INDEX "transfers_in_submitted_date_idx" ON "fulfillment"."transfers_in" USING btree ("submitted_date");--> statement-breakpoint
CREATE INDEX "transfers_in_status_code_idx" ON "fulfillment"."transfers_in" USING btree ("supplier_id","status_code");--> statement-breakpoint
CREATE INDEX "transfers_in_order_number_idx" ON "fulfillment"."transfers_in" USING btree ("order_number");--> statement-breakpoint
CREATE INDEX "transfers_out_ordered_date_idx" ON "fulfillment"."transfers_out" USING btree ("ordered_date");--> statement-breakpoint
CREATE INDEX "transfers_out_request_date_idx" ON "fulfillment"."transfers_out" USING btree ("request_date");--> statement-breakpoint
CREATE INDEX "transfers_out_status_code_idx" ON "fulfillment"."transfers_out" USING btree ("status_code");--> statement-breakpoint
CREATE INDEX "transfers_out_order_number_idx" ON "fulfillment"."transfers_out" USING btree ("order_number");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_event_endpoint_idx" ON "sync"."webhook_deliveries" USING btree ("event_id","endpoint_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_attempted_at_idx" ON "sync"."webhook_deliveries" USING btree ("endpoint_id","attempted_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_pending_idx" ON "sync"."webhook_deliveries" USING btree ("next_attempt_at") WHERE "sync"."webhook_deliveries"."status" = 'pending';