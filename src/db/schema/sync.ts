import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, integer, jsonb, primaryKey, text } from 'drizzle-orm/pg-core';
import { syncSchema, tz } from './columns.ts';

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
    lastRunId: bigint('last_run_id', { mode: 'number' }),
    createdAt: tz('created_at').notNull().defaultNow(),
    updatedAt: tz('updated_at').notNull().defaultNow(),
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
  },
  (t) => [
    index('runs_stream_scope_started_at_idx').on(t.stream, t.scope, t.startedAt),
    index('runs_started_at_idx').on(t.startedAt),
    index('runs_status_idx').on(t.status, t.startedAt),
    check('runs_status_check', sql`${t.status} in ('running', 'succeeded', 'partial', 'failed', 'skipped')`),
    check('runs_mode_check', sql`${t.mode} in ('incremental', 'backfill')`),
  ],
);

/** Upstream records that failed their schema: kept with the reason, their siblings still land. */
export const rejectedRecords = syncSchema.table(
  'rejected_records',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    runId: bigint('run_id', { mode: 'number' }).references(() => runs.id, { onDelete: 'set null' }),
    stream: text('stream').notNull(),
    scope: text('scope').notNull(),
    /** The natural key, when it could be read from the record. */
    recordKey: text('record_key'),
    reason: text('reason').notNull(),
    raw: jsonb('raw'),
    rejectedAt: tz('rejected_at').notNull().defaultNow(),
  },
  (t) => [
    index('rejected_records_stream_scope_idx').on(t.stream, t.scope, t.rejectedAt),
    index('rejected_records_run_id_idx').on(t.runId),
  ],
);

/**
 * Orders whose detail the orders stream should fetch: named by changed shipments and returns (and
 * any a user lists). One row per account and order, so repeated names deduplicate; the orders
 * stream deletes a row once the detail is stored.
 */
export const orderDetailRequests = syncSchema.table(
  'order_detail_requests',
  {
    accountNumber: text('account_number').notNull(),
    orderNumber: text('order_number').notNull(),
    /** Which stream named it: 'shipment', 'return' or 'user'. */
    reason: text('reason').notNull(),
    requestedAt: tz('requested_at').notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ name: 'order_detail_requests_pk', columns: [t.accountNumber, t.orderNumber] }),
    index('order_detail_requests_requested_at_idx').on(t.requestedAt),
  ],
);
