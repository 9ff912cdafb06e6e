COMMENT ON TABLE "sync"."backfill_windows" IS 'Finished windows of backfills: running the same backfill again skips them. Pruned after RETENTION_BACKFILL_WINDOWS_DAYS (90). Key: backfill_id, stream, scope, window_start, window_end.';
--> statement-breakpoint
COMMENT ON TABLE "sync"."detail_requests" IS 'Records whose detail a stream still has to fetch: orders named by changed shipments and returns, INs and products whose detail call failed. Retried with backoff, quarantined after too many attempts; a quarantined request is pruned RETENTION_REJECTED_DAYS (90) after its quarantine, so the record is asked for again when a change names it. Key: stream, scope, record_key.';
--> statement-breakpoint
COMMENT ON TABLE "sync"."events" IS 'Derived events (each type in docs/events.md), the outbox written in the same transaction as the change. Also announced with pg_notify(fulfillment_events, id). Pruned after RETENTION_EVENTS_DAYS (90) once dispatched or suppressed and pending delivery to no endpoint, with its delivery states and attempts.';
--> statement-breakpoint
COMMENT ON TABLE "sync"."rejected_records" IS 'Upstream records the engine could not store as received: quarantined, repaired, or with a detail that kept failing. Their siblings still landed; a quarantined record or a failed detail marks the run partial. One row per problem: a record re-read with the same problem updates its row. Pruned RETENTION_REJECTED_DAYS (90) after it was last seen.';
--> statement-breakpoint
COMMENT ON TABLE "sync"."runs" IS 'The run log: one row per stream x scope x window run, with counts and outcome. Pruned after RETENTION_RUNS_DAYS (30), except the last row of each stream and scope and the last successful run its cursor names.';
--> statement-breakpoint
COMMENT ON TABLE "sync"."webhook_deliveries" IS 'Every attempt to deliver an event to an endpoint. Pruned after RETENTION_DELIVERIES_DAYS (30), and with its event.';
--> statement-breakpoint
COMMENT ON TABLE "sync"."webhook_delivery_states" IS 'Where each delivery of an event to an endpoint stands (one row per endpoint, event and series): the durable state of pending attempts, which each worker claims (a lease) within the concurrency and rate limits of its endpoint. Pruned with its event (never while pending). Key: endpoint_id, event_id, series.';
