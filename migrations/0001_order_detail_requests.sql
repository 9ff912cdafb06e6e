CREATE TABLE "sync"."order_detail_requests" (
	"account_number" text NOT NULL,
	"order_number" text NOT NULL,
	"reason" text NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "order_detail_requests_pk" PRIMARY KEY("account_number","order_number")
);
--> statement-breakpoint
CREATE INDEX "order_detail_requests_requested_at_idx" ON "sync"."order_detail_requests" USING btree ("requested_at");