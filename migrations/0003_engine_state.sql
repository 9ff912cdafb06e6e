CREATE TABLE "sync"."detail_requests" (
	"stream" text NOT NULL,
	"scope" text NOT NULL,
	"record_key" text NOT NULL,
	"reason" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"last_error" text,
	"quarantined_at" timestamp with time zone,
	CONSTRAINT "detail_requests_pk" PRIMARY KEY("stream","scope","record_key")
);
--> statement-breakpoint
CREATE TABLE "sync"."stream_leases" (
	"stream" text NOT NULL,
	"scope" text NOT NULL,
	"holder" text NOT NULL,
	"fence" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"acquired_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stream_leases_pk" PRIMARY KEY("stream","scope")
);
--> statement-breakpoint
ALTER TABLE "sync"."rejected_records" ADD COLUMN "kind" text DEFAULT 'quarantined' NOT NULL;--> statement-breakpoint
ALTER TABLE "sync"."rejected_records" ADD COLUMN "fingerprint" text;--> statement-breakpoint
ALTER TABLE "sync"."rejected_records" ADD COLUMN "occurrences" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "sync"."rejected_records" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "sync"."runs" ADD COLUMN "details" jsonb;--> statement-breakpoint
CREATE INDEX "detail_requests_due_idx" ON "sync"."detail_requests" USING btree ("stream","scope","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "rejected_records_fingerprint_idx" ON "sync"."rejected_records" USING btree ("stream","scope","fingerprint");--> statement-breakpoint
ALTER TABLE "sync"."rejected_records" ADD CONSTRAINT "rejected_records_kind_check" CHECK ("sync"."rejected_records"."kind" in ('quarantined', 'repaired', 'detail'));--> statement-breakpoint
-- Pending order-detail requests move to the general detail queue (the old table is dropped next).
INSERT INTO "sync"."detail_requests" ("stream", "scope", "record_key", "reason", "requested_at")
SELECT 'orders', "account_number", "order_number", "reason", "requested_at" FROM "sync"."order_detail_requests"
ON CONFLICT DO NOTHING;
