COMMENT ON TABLE "sync"."analytics_refreshes" IS 'When the sources of each analytics materialized view last changed and when it was last refreshed (src/analytics/refresh.ts). One row per view. Key: relation.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."relation" IS 'The materialized view, as schema.name (e.g. analytics.shipment_facts).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."changed_at" IS 'When a sync last changed one of its sources (or a view it reads was refreshed).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."refreshed_as_of" IS 'Start of its last successful refresh: every change committed before it is in the view. Stale while changed_at is later.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."last_duration_ms" IS 'How long the last successful refresh took, in milliseconds.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."last_error" IS 'Error of the last failed refresh; cleared by a successful one.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."analytics_refreshes"."last_error_at" IS 'When the last refresh failed.';
