ALTER TABLE "sync"."webhook_endpoints" ADD COLUMN "rate_limit_per_second" integer;--> statement-breakpoint
ALTER TABLE "sync"."webhook_endpoints" ADD COLUMN "max_concurrency" integer;--> statement-breakpoint
ALTER TABLE "sync"."webhook_endpoints" ADD COLUMN "paused_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sync"."webhook_endpoints" ADD COLUMN "next_send_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "webhook_delivery_states_endpoint_due_idx" ON "sync"."webhook_delivery_states" USING btree ("endpoint_id","next_attempt_at") WHERE "sync"."webhook_delivery_states"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_delivery_states_leased_idx" ON "sync"."webhook_delivery_states" USING btree ("endpoint_id","lease_until") WHERE "sync"."webhook_delivery_states"."status" = 'pending' AND "sync"."webhook_delivery_states"."lease_until" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "sync"."webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_rate_limit_check" CHECK ("sync"."webhook_endpoints"."rate_limit_per_second" IS NULL OR "sync"."webhook_endpoints"."rate_limit_per_second" > 0);--> statement-breakpoint
ALTER TABLE "sync"."webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_max_concurrency_check" CHECK ("sync"."webhook_endpoints"."max_concurrency" IS NULL OR "sync"."webhook_endpoints"."max_concurrency" > 0);