import { sql } from 'drizzle-orm';
import { bigint, bigserial, boolean, index, jsonb, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { syncSchema, tz } from './columns.ts';

/**
 * The event outbox (docs/events.md), written in the same transaction as the change. `id` is
 * derived from the dedupe key, so inserts use ON CONFLICT (id) DO NOTHING. `seq` orders events for
 * tailing; never use it as a delivery high-water mark (sequence values commit out of order).
 */
export const events = syncSchema.table(
  'events',
  {
    id: text('id').primaryKey(),
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    type: text('type').notNull(),
    subjectKind: text('subject_kind').notNull(),
    subjectKey: text('subject_key').notNull(),
    occurredAt: tz('occurred_at').notNull(),
    detectedAt: tz('detected_at').notNull(),
    /** `{current, previous, changes}`. */
    data: jsonb('data').notNull(),
    stream: text('stream'),
    scope: text('scope'),
    runId: bigint('run_id', { mode: 'number' }),
    /** From a first load or a backfill: stored, not delivered unless asked for. */
    suppressed: boolean('suppressed').notNull().default(false),
    /** When the relay fanned it out to the endpoints (per-endpoint state is in webhook_deliveries). */
    dispatchedAt: tz('dispatched_at'),
  },
  (t) => [
    uniqueIndex('events_seq_idx').on(t.seq),
    index('events_type_occurred_at_idx').on(t.type, t.occurredAt),
    index('events_occurred_at_idx').on(t.occurredAt),
    index('events_detected_at_idx').on(t.detectedAt),
    index('events_subject_idx').on(t.subjectKind, t.subjectKey),
    // What the relay claims (FOR UPDATE SKIP LOCKED): undispatched, deliverable events.
    index('events_undispatched_idx').on(t.seq).where(sql`${t.dispatchedAt} is null and not ${t.suppressed}`),
    // What `webhooks recover` reads: the events the relay fanned out during a disabled period.
    index('events_dispatched_at_idx').on(t.dispatchedAt).where(sql`${t.dispatchedAt} is not null`),
  ],
);
