CREATE TABLE "sync"."analytics_refreshes" (
	"relation" text PRIMARY KEY NOT NULL,
	"changed_at" timestamp with time zone,
	"refreshed_as_of" timestamp with time zone,
	"last_duration_ms" integer,
	"last_error" text,
	"last_error_at" timestamp with time zone
);
