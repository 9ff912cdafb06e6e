COMMENT ON COLUMN "sync"."webhook_deliveries"."series" IS 'Which series of attempts: '''' for the delivery the relay started, replay_<id> for webhooks replay, recover_<id> for webhooks recover.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_delivery_states"."series" IS ''''' for the delivery the relay started, replay_<id> for webhooks replay, recover_<id> for webhooks recover.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_delivery_states"."max_attempts" IS 'Attempts allowed in all; null: as many as the retry schedule has (10 on the Standard Webhooks schedule).';
--> statement-breakpoint
COMMENT ON TABLE "sync"."webhook_endpoint_disablements" IS 'Each period an endpoint was disabled: the relay sent it nothing then; webhooks recover re-sends what those periods missed. The newest 50 per endpoint are kept.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoint_disablements"."id" IS 'Period id.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoint_disablements"."endpoint_id" IS 'The endpoint.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoint_disablements"."disabled_by" IS '''failure'' (a 410 Gone, or days of failed deliveries) or ''operator'' (webhooks disable).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoint_disablements"."reason" IS 'Why, as shown by webhooks list.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoint_disablements"."disabled_at" IS 'When it was disabled.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoint_disablements"."enabled_at" IS 'When it was enabled again; null while it is still disabled.';
--> statement-breakpoint
COMMENT ON TABLE "sync"."webhook_endpoints" IS 'Where derived events are sent (Standard Webhooks), managed by fulfillment-sync webhooks add|list|get|update|remove|enable|disable|test|rotate-secret.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoints"."description" IS 'Free text of the operator (webhooks add|update --description).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoints"."disabled_by" IS 'Who disabled it: ''failure'' (a 410 Gone, or days of failed deliveries) or ''operator'' (webhooks disable); null while enabled.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoints"."metadata" IS 'Free key/values of the operator (webhooks update --metadata), a JSON object; never sent.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."webhook_endpoints"."headers" IS 'Extra request headers sent with every delivery, a JSON object of name -> value (webhooks update --header); never the signature headers or content-type.';
