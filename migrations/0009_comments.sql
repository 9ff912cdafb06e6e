COMMENT ON COLUMN "sync"."cursors"."last_run" IS 'What the last run did, as JSON: calls (upstream calls, its cycle cost), windows stored, at.';
