CREATE INDEX "backfill_windows_finished_at_idx" ON "sync"."backfill_windows" USING btree ("finished_at");--> statement-breakpoint
CREATE INDEX "detail_requests_quarantined_at_idx" ON "sync"."detail_requests" USING btree ("quarantined_at") WHERE "sync"."detail_requests"."quarantined_at" is not null;--> statement-breakpoint
CREATE INDEX "rejected_records_last_seen_at_idx" ON "sync"."rejected_records" USING btree ("last_seen_at");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_created_at_idx" ON "sync"."webhook_deliveries" USING btree ("created_at");