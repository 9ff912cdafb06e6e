COMMENT ON COLUMN "sync"."runs"."lease_fence" IS 'Fence of the lease the run held (sync.stream_leases): shared by the windows of one run, never by two runs of a stream and scope.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."runs"."started_at" IS 'When the window''s fetch started. A run fetches its next window while the previous one commits, so rows with the same lease_fence can overlap in time; rows with different fences never do.';
