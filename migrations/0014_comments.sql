COMMENT ON TABLE "sync"."rejected_records" IS 'Upstream records the engine could not store as received: quarantined, repaired, or with a detail that kept failing. Their siblings still landed; a quarantined record or a failed detail marks the run partial. One row per problem: a record re-read with the same problem updates its row.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."rejected_records"."run_id" IS 'The sync.runs row that last saw it.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."rejected_records"."reason" IS 'Why the record was rejected or what was repaired, as last seen.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."rejected_records"."raw" IS 'The record as last received (repaired values as stored; an unstorable record as a summary).';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."rejected_records"."fingerprint" IS 'Hash of kind, record key and reason with its numbers masked (a quoted value that moves is the same problem); of kind, reason and the record itself when the key cannot be read. The same problem seen again updates this row.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."rejected_records"."occurrences" IS 'How many times runs saw this problem.';
--> statement-breakpoint
COMMENT ON COLUMN "sync"."runs"."status" IS '''succeeded'', ''partial'' (some records quarantined, or detail calls failed and will be retried) or ''failed''. ''running'' and ''skipped'' are allowed but not written: a window''s row is written once it is stored or has failed, and a run that finds another run holding the stream''s lease writes none.';
--> statement-breakpoint
COMMENT ON COLUMN "fulfillment"."sync_health"."last_run_status" IS 'Outcome of the most recent run: ''succeeded'', ''partial'' or ''failed''.';
