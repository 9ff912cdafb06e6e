import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  primaryKey,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { rowTimes, syncSchema, tz } from './columns.ts';

/** Where each stream x scope has read up to. Advanced only in the transaction that stores the rows. */
export const cursors = syncSchema.table(
  'cursors',
  {
    stream: text('stream').notNull(),
    /** A supplier id or an account number. */
    scope: text('scope').notNull(),
    /** Time-window streams: the end of the last window stored successfully. */
    positionAt: tz('position_at'),
    /** Anything else a stream needs to resume (open records to follow, per-day marks...). */
    position: jsonb('position').notNull().default({}),
    lastSuccessAt: tz('last_success_at'),
    /**
     * Wall clock of the last stored window, changed or not (as sync.runs.finished_at): a poll that
     * found nothing new writes no run row, only this and last_success_at.
     */
    lastPolledAt: tz('last_polled_at'),
    lastRunId: bigint('last_run_id', { mode: 'number' }),
    /** What the last run did: upstream calls, windows stored, when (for status and metrics). */
    lastRun: jsonb('last_run'),
    ...rowTimes(),
  },
  (t) => [primaryKey({ name: 'cursors_pk', columns: [t.stream, t.scope] })],
);

export const RUN_STATUSES = ['running', 'succeeded', 'partial', 'failed', 'skipped'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export const RUN_MODES = ['incremental', 'backfill'] as const;
export type RunMode = (typeof RUN_MODES)[number];

/** The run log: one row per stream x scope x window run, queryable by BI. */
export const runs = syncSchema.table(
  'runs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    stream: text('stream').notNull(),
    scope: text('scope').notNull(),
    mode: text('mode').$type<RunMode>().notNull().default('incremental'),
    /** Set for mode 'backfill': the sync.backfill_windows backfill it belongs to. */
    backfillId: text('backfill_id'),
    /**
     * The fence of the lease the run held (sync.stream_leases): the parts of one run share it, and
     * two runs of a stream and scope never do, so overlapping rows with different fences would
     * mean two runs at once.
     */
    leaseFence: bigint('lease_fence', { mode: 'number' }),
    windowStart: tz('window_start'),
    windowEnd: tz('window_end'),
    startedAt: tz('started_at').notNull().defaultNow(),
    finishedAt: tz('finished_at'),
    status: text('status').$type<RunStatus>().notNull().default('running'),
    fetched: integer('fetched').notNull().default(0),
    inserted: integer('inserted').notNull().default(0),
    updated: integer('updated').notNull().default(0),
    unchanged: integer('unchanged').notNull().default(0),
    rejected: integer('rejected').notNull().default(0),
    /** Events written to the outbox by this run. */
    events: integer('events').notNull().default(0),
    apiCalls: integer('api_calls').notNull().default(0),
    error: text('error'),
    /** What the run decided on the way (splits, detail failures, warnings), for operators. */
    details: jsonb('details'),
    /** Rows an unconfirmed shrink kept: the answer omitted them and no second read agreed (0: none). */
    vanishWithheld: integer('vanish_withheld').notNull().default(0),
  },
  (t) => [
    index('runs_stream_scope_started_at_idx').on(t.stream, t.scope, t.startedAt),
    index('runs_started_at_idx').on(t.startedAt),
    index('runs_status_idx').on(t.status, t.startedAt),
    check('runs_status_check', sql`${t.status} in ('running', 'succeeded', 'partial', 'failed', 'skipped')`),
    check('runs_mode_check', sql`${t.mode} in ('incremental', 'backfill')`),
  ],
);

/** Kinds of sync.rejected_records rows. */
export const REJECTION_KINDS = ['quarantined', 'repaired', 'detail'] as const;
export type RejectionKind = (typeof REJECTION_KINDS)[number];

/**
 * Upstream records the engine could not store as received: quarantined (their siblings still land),
 * repaired (stored with a value Postgres cannot hold removed or replaced), or a detail that kept
 * failing. The same problem seen again is counted on its row, never stored twice.
 */
export const rejectedRecords = syncSchema.table(
  'rejected_records',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: bigint('run_id', { mode: 'number' }).references(() => runs.id, { onDelete: 'set null' }),
    stream: text('stream').notNull(),
    scope: text('scope').notNull(),
    kind: text('kind').$type<RejectionKind>().notNull().default('quarantined'),
    /** The natural key, when it could be read from the record. */
    recordKey: text('record_key'),
    reason: text('reason').notNull(),
    raw: jsonb('raw'),
    /** `rejectionFingerprint` (src/sync/rejections.ts): the same problem again updates this row. */
    fingerprint: text('fingerprint'),
    occurrences: integer('occurrences').notNull().default(1),
    rejectedAt: tz('rejected_at').notNull().defaultNow(),
    lastSeenAt: tz('last_seen_at').notNull().defaultNow(),
  },
  (t) => [
    index('rejected_records_stream_scope_idx').on(t.stream, t.scope, t.rejectedAt),
    index('rejected_records_run_id_idx').on(t.runId),
    uniqueIndex('rejected_records_fingerprint_idx').on(t.stream, t.scope, t.fingerprint),
    // What the pruner walks (src/retention/): problems not seen for longest first.
    index('rejected_records_last_seen_at_idx').on(t.lastSeenAt),
    check('rejected_records_kind_check', sql`${t.kind} in ('quarantined', 'repaired', 'detail')`),
  ],
);

/**
 * Records whose detail a stream must fetch: orders named by changed shipments and returns (and any
 * a user lists), INs and products whose detail call failed while their list row changed. One row
 * per stream, scope and record, so repeated names deduplicate; the stream deletes it in the
 * transaction that stores the detail. A failing detail is retried with backoff (`next_attempt_at`)
 * and quarantined after too many attempts, so it never blocks the others.
 */
export const detailRequests = syncSchema.table(
  'detail_requests',
  {
    stream: text('stream').notNull(),
    scope: text('scope').notNull(),
    /** The record's key as the stream reads it (an order number, an IN order number, a SKU). */
    recordKey: text('record_key').notNull(),
    /** Why it was asked for: 'shipment', 'return', 'user', 'detail-failed' or 'children-withheld'. */
    reason: text('reason').notNull(),
    requestedAt: tz('requested_at').notNull().defaultNow(),
    attempts: integer('attempts').notNull().default(0),
    /** Not fetched again before this time (backoff after a failure); null: due now. */
    nextAttemptAt: tz('next_attempt_at'),
    lastError: text('last_error'),
    /** Set once attempts ran out: the record is in sync.rejected_records and no longer fetched. */
    quarantinedAt: tz('quarantined_at'),
  },
  (t) => [
    primaryKey({ name: 'detail_requests_pk', columns: [t.stream, t.scope, t.recordKey] }),
    index('detail_requests_due_idx').on(t.stream, t.scope, t.nextAttemptAt),
    // What the pruner walks (src/retention/): requests quarantined longest ago.
    index('detail_requests_quarantined_at_idx')
      .on(t.quarantinedAt)
      .where(sql`${t.quarantinedAt} is not null`),
  ],
);

/**
 * Who runs a stream and scope now: a lease with a fencing token instead of a lock that pins a
 * connection. A run takes it before reading the cursor, renews it while it works, and its write
 * transaction commits only if `fence` is still its own, so a run that lost its lease (paused,
 * partitioned, too slow) can never write over a newer holder's data.
 */
export const streamLeases = syncSchema.table(
  'stream_leases',
  {
    stream: text('stream').notNull(),
    scope: text('scope').notNull(),
    /** A random id of the run holding it. */
    holder: text('holder').notNull(),
    /** Increases with every new holder; checked in the write transaction. */
    fence: bigint('fence', { mode: 'number' }).notNull(),
    expiresAt: tz('expires_at').notNull(),
    acquiredAt: tz('acquired_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'stream_leases_pk', columns: [t.stream, t.scope] })],
);
