COMMENT ON COLUMN "sync"."webhook_deliveries"."series" IS 'Which series of attempts: '''' for the delivery the relay started, the replay id for webhooks replay, test_<id> for webhooks test.';
--> statement-breakpoint
COMMENT ON TABLE "sync"."webhook_delivery_states" IS 'Where each delivery of an event to an endpoint stands (one row per endpoint, event and series): the durable state of pending attempts. Redis jobs only wake deliveries early; the worker re-enqueues due rows whose job is missing. Key: endpoint_id, event_id, series.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_delivery_states"."endpoint_id" IS 'The endpoint.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_delivery_states"."event_id" IS 'The event (its id is also the webhook-id header).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_delivery_states"."series" IS ''''' for the delivery the relay started, the replay id for webhooks replay, test_<id> for webhooks test.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_delivery_states"."status" IS '''pending'' (an attempt is due at next_attempt_at), ''succeeded'', ''gave_up'' (attempts exhausted or endpoint disabled by its failures) or ''skipped'' (endpoint disabled by hand, or already delivered).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_delivery_states"."attempts_made" IS 'Attempts made so far (each is a row of sync.webhook_deliveries).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_delivery_states"."max_attempts" IS 'Attempts allowed in all; null: as many as the retry schedule has (10 on the Standard Webhooks schedule). 1 for webhooks test.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_delivery_states"."next_attempt_at" IS 'When the next attempt is due; null once finished.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_delivery_states"."lease_until" IS 'A worker sending the next attempt holds it until then; another may take it over after (the sender died).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_delivery_states"."last_error" IS 'Why the last attempt failed or the delivery was skipped; never a response body or a secret.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_delivery_states"."created_at" IS 'When the row was created.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_delivery_states"."updated_at" IS 'When the row was last updated.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_delivery_states"."finished_at" IS 'When it finished.';
--> statement-breakpoint
COMMENT ON TABLE "sync"."webhook_endpoints" IS 'Where derived events are sent (Standard Webhooks), managed by fulfillment-sync webhooks add|list|remove|enable|disable|test|rotate-secret.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoints"."previous_secret" IS 'The secret before the last webhooks rotate-secret: deliveries are signed with both until previous_secret_expires_at, then it is dropped.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoints"."previous_secret_expires_at" IS 'When previous_secret stops signing (24 hours after the rotation).';
