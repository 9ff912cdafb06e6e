COMMENT ON COLUMN "fulfillment"."inventory"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."inventory_activity"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."invoices"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."orders"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."products"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."returns"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."shipments"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfers_in"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."transfers_out"."content_hash" IS 'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it.';
