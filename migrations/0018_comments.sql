COMMENT ON TABLE "sync"."webhook_delivery_states" IS 'Where each delivery of an event to an endpoint stands (one row per endpoint, event and series): the durable state of pending attempts, which each worker claims (a lease) within the concurrency and rate limits of its endpoint. Key: endpoint_id, event_id, series.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoints"."rate_limit_per_second" IS 'Most delivery attempts started per second to this endpoint, across all workers (bursts up to one second of them); null: no limit.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoints"."max_concurrency" IS 'Most delivery attempts in flight to this endpoint at once, across all workers; null: WEBHOOK_ENDPOINT_CONCURRENCY (default 10).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoints"."paused_until" IS 'No attempt to this endpoint starts before this time: set from the Retry-After of a 429 or 503 answer; null or past: not paused.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoints"."next_send_at" IS 'Pacing of rate_limit_per_second: attempts start once the clock is past it (kept by the worker); null: none sent under a limit yet.';
