import { bigint, index, integer, primaryKey, text } from 'drizzle-orm/pg-core';
import { syncSchema, tz } from './columns.ts';

/** Finished windows of a backfill: a second run of the same backfill skips them (resumable). */
export const backfillWindows = syncSchema.table(
  'backfill_windows',
  {
    backfillId: text('backfill_id').notNull(),
    stream: text('stream').notNull(),
    scope: text('scope').notNull(),
    windowStart: tz('window_start').notNull(),
    windowEnd: tz('window_end').notNull(),
    finishedAt: tz('finished_at').notNull().defaultNow(),
    runId: bigint('run_id', { mode: 'number' }),
    fetched: integer('fetched').notNull().default(0),
    inserted: integer('inserted').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    rejected: integer('rejected').notNull().default(0),
  },
  (t) => [
    primaryKey({
      name: 'backfill_windows_pk',
      columns: [t.backfillId, t.stream, t.scope, t.windowStart, t.windowEnd],
    }),
    // What the pruner walks (src/retention/): windows finished longest ago.
    index('backfill_windows_finished_at_idx').on(t.finishedAt),
  ],
);
