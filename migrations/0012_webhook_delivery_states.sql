CREATE TABLE "sync"."webhook_delivery_states" (
	"endpoint_id" text NOT NULL,
	"event_id" text NOT NULL,
	"series" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts_made" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer,
	"next_attempt_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "webhook_delivery_states_endpoint_id_event_id_series_pk" PRIMARY KEY("endpoint_id","event_id","series"),
	CONSTRAINT "webhook_delivery_states_status_check" CHECK ("sync"."webhook_delivery_states"."status" in ('pending', 'succeeded', 'gave_up', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "sync"."webhook_deliveries" ADD COLUMN "series" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "sync"."webhook_endpoints" ADD COLUMN "previous_secret" text;--> statement-breakpoint
ALTER TABLE "sync"."webhook_endpoints" ADD COLUMN "previous_secret_expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync"."webhook_delivery_states" ADD CONSTRAINT "webhook_delivery_states_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "sync"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sync"."webhook_delivery_states" ADD CONSTRAINT "webhook_delivery_states_event_id_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "sync"."events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_delivery_states_due_idx" ON "sync"."webhook_delivery_states" USING btree ("next_attempt_at") WHERE "sync"."webhook_delivery_states"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_delivery_states_event_idx" ON "sync"."webhook_delivery_states" USING btree ("event_id");