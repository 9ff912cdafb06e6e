COMMENT ON COLUMN "sync"."backfill_windows"."stream" IS 'Stream name: products, inventory, inventory_activity, transfers_in, transfers_out, shipments, returns, invoices or orders.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."cursors"."stream" IS 'Stream name: products, inventory, inventory_activity, transfers_in, transfers_out, shipments, returns, invoices or orders.';
--> statement-breakpoint
COMMENT ON TABLE "sync"."events" IS 'Derived events (each type in docs/events.md), the outbox written in the same transaction as the change. Also announced with pg_notify(fulfillment_events, id). Pruned after RETENTION_EVENTS_DAYS (90) once dispatched or suppressed and pending delivery to no endpoint, with its delivery states and attempts.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."rejected_records"."stream" IS 'Stream name: products, inventory, inventory_activity, transfers_in, transfers_out, shipments, returns, invoices or orders.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."runs"."stream" IS 'Stream name: products, inventory, inventory_activity, transfers_in, transfers_out, shipments, returns, invoices or orders.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."stream" IS 'Stream name: products, inventory, inventory_activity, transfers_in, transfers_out, shipments, returns, invoices or orders.';
