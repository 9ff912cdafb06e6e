import type { PgTable } from 'drizzle-orm/pg-core';
import type { PoolClient } from 'pg';
import type { Logger } from 'pino';
import type { StreamName, StreamSettings } from '../config/types.ts';

/**
 * The engine seam: what one stream must describe so that `runStream` can read it, diff it against
 * the warehouse and write only what changed. A stream is one small file in `src/streams/` exporting
 * a `StreamDefinition`; the engine owns transactions, locks, cursors, the run log and rejections.
 */

/** A supplier id or an account number from the configuration. */
export interface Scope {
  kind: 'supplier' | 'account';
  id: string;
}

/** A row of one table, keyed by snake_case column name; values as the pg driver reads/writes them. */
export type Row = Record<string, unknown>;

/** One slice of work: one API call (or a few) whose answer is written in one transaction. */
export interface Window {
  /** 'minute' and 'day' windows can be halved by adaptive splitting; the others cannot. */
  kind: 'minute' | 'day' | 'snapshot' | 'filter';
  /** Inclusive bounds (minute or day granularity in the configured zone). Unused for 'snapshot'. */
  start: Date;
  end: Date;
  /** Extra query meaning for 'filter' windows (e.g. `{statusCode: 'NEW'}`) or detail keys. */
  filter?: Readonly<Record<string, string>>;
  /** Where the cursor moves once this window is stored; absent: the cursor stays (re-reads). */
  advanceTo?: Date;
}

/** The cursor of one stream and scope as `planWindows` sees it. */
export interface CursorState {
  /** End of the last stored forward window; undefined before the first success. */
  position: Date | undefined;
  lastSuccessAt: Date | undefined;
  /**
   * True while a scope's initial load is unfinished: a run stored some windows of it but has not
   * yet stored all its planned windows (e.g. it failed half-way through the first 30 days).
   */
  initialLoadPending?: boolean;
}

/** What `fetchWindow` answers: valid records, rejected ones (`{index, reason, raw}`), calls made. */
export interface FetchResult<R> {
  records: R[];
  rejected: RejectedRecord[];
  apiCalls: number;
}

export interface RejectedRecord {
  index: number;
  reason: string;
  raw: unknown;
}

/** Everything `planWindows` may look at; pure, no I/O. */
export interface PlanInput {
  cursor: CursorState;
  now: Date;
  settings: StreamSettings;
  timezone: string;
  /** Where a scope's first run starts (config.syncStart, else 30 days before now). */
  start: Date;
}

/** What row builders get besides the record: the scope and the zone of offset-less date-times. */
export interface RowContext {
  scope: Scope;
  timezone: string;
}

/** One child table of a record (lines, events, notes...): replaced as a set when the parent changed. */
export interface ChildEntity<R> {
  table: PgTable;
  /** Full natural key of a child row (includes the parent key columns). */
  key: readonly string[];
  /** Columns of the child that hold the parent's key, in the order of the parent's `key`. */
  parentKey: readonly string[];
  /** Child rows of one record; the engine de-duplicates them by `key` (last wins). */
  rows(record: R, ctx: RowContext): Row[];
}

/** How a record maps to its parent table (and children). */
export interface RecordEntity<R> {
  table: PgTable;
  /** Natural key columns of the parent table (CONTRACT.md section 2). */
  key: readonly string[];
  /**
   * The parent row of one record. It must capture everything the children are built from (the
   * `raw` jsonb of the whole record does), because a record whose parent row is unchanged is
   * considered unchanged and its children are not even read.
   */
  row(record: R, ctx: RowContext): Row;
  children?: readonly ChildEntity<R>[];
  /**
   * Snapshot streams (inventory): stored parent rows matching `where` (column -> value) that the
   * window did not return are passed to `vanished`, which returns the row to store instead
   * (e.g. quantities zeroed) or null to leave it. Only for 'snapshot' windows.
   */
  snapshot?: {
    where(scope: Scope, window: Window): Row;
    vanished(stored: Row): Row | null;
  };
}

/** One changed record, as handed to event derivation and `afterWrite` hooks. */
export interface RecordChange<R> {
  kind: 'inserted' | 'updated';
  /** The record as received (undefined for rows produced by `snapshot.vanished`). */
  record: R | undefined;
  row: Row;
  /** The stored parent row before this write (undefined when inserted). */
  previousRow: Row | undefined;
}

/** Context of the in-transaction hooks. */
export interface WindowHookContext<R, C> {
  tx: PoolClient;
  client: C;
  scope: Scope;
  window: Window;
  logger: Logger;
  changes: readonly RecordChange<R>[];
}

/** What `fetchWindow` gets; `db` is for reads only (e.g. which open records to follow up). */
export interface FetchArgs<C> {
  client: C;
  scope: Scope;
  window: Window;
  timezone: string;
  db: Pick<PoolClient, 'query'>;
}

/** A stream: name, scope kind, windows, fetch, record -> rows mapping, events subject. */
export interface StreamDefinition<R = unknown, C = unknown> {
  name: StreamName;
  scopeKind: Scope['kind'];
  /** Pure: which windows to read this run, from the cursor, lookback and re-read horizons. */
  planWindows(input: PlanInput): Window[];
  /** One window's API answer. Throwing fails the window (the engine may split it; see README). */
  fetchWindow(args: FetchArgs<C>): Promise<FetchResult<R>>;
  entity: RecordEntity<R>;
  /** Subject kind of derived events (CONTRACT.md section 4), e.g. 'shipment'; none: no events. */
  subjectKind?: string;
  /**
   * Called for changed records before their children are diffed, inside the transaction: lets a
   * stream fetch detail only for changed rows (transfers_in, products). Returns the records to map.
   */
  enrich?(ctx: WindowHookContext<R, C> & { records: R[] }): Promise<{ records: R[]; apiCalls: number }>;
  /** Called after the window's rows are written, inside the same transaction (history, requests). */
  afterWrite?(ctx: WindowHookContext<R, C>): Promise<{ apiCalls?: number } | undefined>;
}

/**
 * Turns a window's changes into outbox events inside the transaction; returns how many were written.
 * Wired to src/events by the caller; absent: no events.
 */
export type EventSink = (args: {
  tx: PoolClient;
  stream: StreamName;
  scope: Scope;
  subjectKind: string;
  changes: readonly RecordChange<unknown>[];
  detectedAt: Date;
  /** True for a scope's first load and for backfills (delivery is decided by config). */
  initialLoad: boolean;
  /** The sync.runs id of this window's run (written in the same transaction), for `run_id`. */
  runId: number;
}) => Promise<number>;

/** Counts of one window or one whole run. */
export interface RunCounts {
  fetched: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  apiCalls: number;
  events: number;
}

export type RunStatus = 'succeeded' | 'partial' | 'failed' | 'skipped';

/** What `runStream` answers for one stream and scope. */
export interface StreamRunResult extends RunCounts {
  stream: StreamName;
  scope: Scope;
  status: RunStatus;
  windows: number;
  error?: string;
  /**
   * Set when upstream's Retry-After failed the run (a 429 or 503 longer than the client waits
   * in-process): the job queue should pause this long rather than retry at once.
   */
  retryAfterMs?: number;
  /**
   * Snapshot windows whose vanish detection was skipped because some records were rejected (an
   * incomplete snapshot must not zero what it could not read); absent when none.
   */
  vanishChecksSkipped?: number;
}
