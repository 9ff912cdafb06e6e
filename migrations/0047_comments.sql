COMMENT ON VIEW "fulfillment"."sync_health" IS 'View: sync health per stream and scope (from schema sync, which readers cannot read directly): last success, lag, last error, and the runs, rows and rejected records of the last 24 hours. One row per stream and scope that has a cursor or a run.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."stream" IS 'Stream name: products, inventory, inventory_activity, transfers_in, transfers_out, shipments, returns, invoices or orders.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."scope" IS 'Stream scope: a supplier id or an account number.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."last_success_at" IS 'When the last successful run of this stream and scope finished; null if none yet.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."lag_seconds" IS 'Seconds from last_success_at to now (at query time): how stale the data of this stream and scope may be; null if it never succeeded.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."cursor_position_at" IS 'Time-window streams: the end of the last window stored (sync.cursors.position_at); null for snapshot and detail streams.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."last_run_at" IS 'When the most recent run (any outcome) started; when it was an empty poll (nothing new found, no sync.runs row), when that poll was stored (sync.cursors.last_polled_at).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."last_run_status" IS 'Outcome of the most recent run: ''succeeded'' (an empty poll too), ''partial'' or ''failed''.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."last_error" IS 'Error text of the most recent failed run; null if none ever failed.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."last_error_at" IS 'When that failed run finished.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."is_failing" IS 'Whether the most recent failed run is newer than the last success.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."runs_24h" IS 'Number of the runs started in the last 24 hours that wrote a run row (0 when none): an empty poll, which finds nothing new, writes none and is not counted.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."failed_runs_24h" IS 'Number of failed runs among those of the runs started in the last 24 hours (0 when none).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."rows_24h" IS 'Rows inserted plus rows updated of the runs started in the last 24 hours (0 when none).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."rejected_24h" IS 'Records rejected (see sync.rejected_records) of the runs started in the last 24 hours (0 when none).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."events_24h" IS 'Events derived of the runs started in the last 24 hours (0 when none).';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."api_calls_24h" IS 'Upstream API calls of the runs started in the last 24 hours that wrote a run row (0 when none): the calls of empty polls are not counted (fulfillment_api_calls_total counts every call).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."cursors"."last_run" IS 'What the last run did, as JSON: calls (upstream calls, its cycle cost), windows stored, at (when a run last did otherwise: a run like the one before writes nothing here; last_polled_at says when it ran).';
