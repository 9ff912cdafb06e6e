CREATE TABLE "sync"."webhook_endpoint_disablements" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"endpoint_id" text NOT NULL,
	"disabled_by" text NOT NULL,
	"reason" text,
	"disabled_at" timestamp with time zone NOT NULL,
	"enabled_at" timestamp with time zone,
	CONSTRAINT "webhook_endpoint_disablements_by_check" CHECK ("sync"."webhook_endpoint_disablements"."disabled_by" in ('failure', 'operator'))
);
--> statement-breakpoint
ALTER TABLE "sync"."webhook_endpoints" ADD COLUMN "disabled_by" text;--> statement-breakpoint
ALTER TABLE "sync"."webhook_endpoints" ADD COLUMN "metadata" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sync"."webhook_endpoints" ADD COLUMN "headers" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "sync"."webhook_endpoint_disablements" ADD CONSTRAINT "webhook_endpoint_disablements_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "sync"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_endpoint_disablements_endpoint_idx" ON "sync"."webhook_endpoint_disablements" USING btree ("endpoint_id","disabled_at");