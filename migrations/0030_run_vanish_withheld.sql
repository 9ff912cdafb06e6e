ALTER TABLE "sync"."runs" ADD COLUMN "vanish_withheld" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
COMMENT ON COLUMN "sync"."runs"."vanish_withheld" IS 'Rows an unconfirmed shrink kept: the answer would have zeroed or closed them (it omitted much of what the scope holds), no further read agreed, so they stay as stored and the next run decides. 0 otherwise.';
