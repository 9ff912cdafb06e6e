COMMENT ON TABLE "sync"."detail_requests" IS 'Records whose detail a stream still has to fetch: orders named by changed shipments and returns, INs and products whose detail call failed. Retried with backoff, quarantined after too many attempts. Key: stream, scope, record_key.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."detail_requests"."stream" IS 'The stream that fetches the detail: ''orders'', ''transfers_in'' or ''products''.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."detail_requests"."scope" IS 'Account number (orders) or supplier id (transfers_in, products).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."detail_requests"."record_key" IS 'The record to fetch: an order number, an IN order number or a SKU.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."detail_requests"."reason" IS 'What asked for it: ''shipment'', ''return'', ''user'' or ''detail-failed''.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."detail_requests"."requested_at" IS 'When the record was last named; a request named again while being fetched is kept for the next run.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."detail_requests"."attempts" IS 'Failed detail calls so far.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."detail_requests"."next_attempt_at" IS 'Not fetched again before this time (backoff after a failure); null means due now.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."detail_requests"."last_error" IS 'Why the last attempt failed.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."detail_requests"."quarantined_at" IS 'When attempts ran out: the record is in sync.rejected_records and is no longer fetched.';
--> statement-breakpoint
COMMENT ON TABLE "sync"."rejected_records" IS 'Upstream records the engine could not store as received: quarantined, repaired, or with a detail that kept failing. Their siblings still landed and the run is marked partial.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."rejected_records"."kind" IS '''quarantined'' (not stored, its siblings were), ''repaired'' (stored with a value Postgres cannot hold removed or replaced) or ''detail'' (its detail kept failing).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."rejected_records"."reason" IS 'Why the record was rejected or what was repaired.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."rejected_records"."raw" IS 'The record as received (repaired values as stored; an unstorable record as a summary).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."rejected_records"."fingerprint" IS 'Hash of kind, key, reason and record: the same problem seen again updates this row.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."rejected_records"."occurrences" IS 'How many runs saw this problem.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."rejected_records"."rejected_at" IS 'When the problem was first seen.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."rejected_records"."last_seen_at" IS 'When a run last saw it.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."runs"."details" IS 'What the run decided on the way (window splits, detail failures, warnings), as JSON.';
--> statement-breakpoint
COMMENT ON TABLE "sync"."stream_leases" IS 'Which run holds each stream and scope: a lease renewed while the run works, with a fencing token its write transaction checks, so two runs never write the same stream and scope. Key: stream, scope.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."stream_leases"."stream" IS 'Stream name.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."stream_leases"."scope" IS 'Supplier id or account number.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."stream_leases"."holder" IS 'Random id of the run holding the lease.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."stream_leases"."fence" IS 'Increases with every new holder; a write commits only under its own fence.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."stream_leases"."expires_at" IS 'When the lease lapses unless renewed (a crashed run frees it this way).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."stream_leases"."acquired_at" IS 'When the current holder took it.';
