ALTER TABLE "fulfillment"."inventory" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "fulfillment"."inventory_activity" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "fulfillment"."invoices" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "fulfillment"."orders" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "fulfillment"."products" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "fulfillment"."returns" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "fulfillment"."shipments" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "fulfillment"."transfers_in" ADD COLUMN "content_hash" text;--> statement-breakpoint
ALTER TABLE "fulfillment"."transfers_out" ADD COLUMN "content_hash" text;