import type { PgTable } from 'drizzle-orm/pg-core';
import type { StreamName, StreamSettings } from '../config/types.ts';
import type { Queryable } from '../db/queryable.ts';
import type { AmbiguousTime } from '../time/parse.ts';
import type { Absent, ShrinkOutcome } from './shrinkRule.ts';
import type { SplitMemory } from './splitMemory.ts';

/**
 * The engine seam: what one stream must describe so that `runStream` can read it, diff it against
 * the warehouse and write only what changed. A stream is one small file in `src/streams/` exporting
 * a `StreamDefinition`; the engine owns leases, transactions, cursors, the run log, rejections,
 * the detail queue and events.
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
  /**
   * The oldest time the initial load read from: records first seen later but older than this are
   * history (their events are stored, not delivered). Undefined before the first load.
   */
  loadedFrom?: Date;
  /** The window size that last worked (adaptive windows, see windowSize.ts); undefined: the maximum. */
  windowSize?: number;
  /** The filter splits that worked (splitMemory.ts); undefined: none remembered. */
  split?: SplitMemory;
}

/** An upstream record that could not be stored as received, with why. */
export interface RejectedRecord {
  index: number;
  reason: string;
  /** The record (storable: repaired values as they will be stored, unstorable ones summarised). */
  raw: unknown;
  /** The natural key when it could be read, as stored in sync.rejected_records.record_key. */
  key?: string | undefined;
}

/** A warning a window wants the operator to see (logged and kept in the run's details). */
export interface WindowWarning {
  message: string;
  data?: Record<string, unknown>;
}

/** What `fetchWindow` answers. */
export interface FetchResult<R> {
  records: R[];
  /** Records that failed validation: quarantined, their siblings land. */
  rejected: RejectedRecord[];
  /** Records stored with a value Postgres cannot hold removed or replaced (noted, not quarantined). */
  repaired?: RejectedRecord[];
  apiCalls: number;
  /**
   * Records the list calls did not return but whose detail is wanted (an open IN that left the
   * open lists): the detail stage fetches them by key, unless their request is backing off.
   */
  byKey?: string[];
  warnings?: WindowWarning[];
  /** Open-list windows: the stored records the answer would take as gone (confirmed before use). */
  absent?: Absent;
  /** Set by the engine once a shrink was judged (confirmShrink.ts): what may vanish, or nothing. */
  shrink?: ShrinkOutcome;
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

/** What row builders get besides the record. */
export interface RowContext {
  scope: Scope;
  /** Zone of offset-less upstream date-times. */
  timezone: string;
  /** How an offset-less time inside the repeated autumn hour is read (FULFILLMENT_AMBIGUOUS_TIME); default 'later'. */
  ambiguousTime?: AmbiguousTime;
  /** The run's clock: the time the engine stamps on what it writes (fetch times, vanishings). */
  now: Date;
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
  /** Natural key columns of the parent table (docs/warehouse.md). */
  key: readonly string[];
  /**
   * The parent row of one record. It must capture everything the children are built from (the
   * `raw` jsonb of the whole record does), because a record whose parent row is unchanged is
   * considered unchanged and its children are not even read.
   */
  row(record: R, ctx: RowContext): Row;
  children?: readonly ChildEntity<R>[];
  /**
   * Whether the record carries its children (default: always). A list row whose detail could not
   * be fetched does not: its stored children are then left exactly as they are.
   */
  hasChildren?(record: R): boolean;
  /**
   * The key columns of a record that failed validation, read from its raw form where possible
   * (undefined when unreadable). Snapshot streams need it: a rejected row whose key is known is
   * protected from being taken for vanished.
   */
  keyOfRejected?(raw: unknown, ctx: RowContext): Row | undefined;
  /**
   * Snapshot streams (inventory): stored parent rows matching `where` (column -> value) that the
   * window did not return are passed to `vanished`, which returns the row to store instead
   * (e.g. quantities zeroed) or null to leave it. Only for 'snapshot' windows.
   */
  snapshot?: {
    where(scope: Scope, window: Window): Row;
    vanished(stored: Row, ctx: RowContext): Row | null;
    /** A column set once a row vanished: rows where it is set are already handled and not read. */
    goneColumn?: string;
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
  /** The stored children before this write, by child table name (updated parents with children). */
  previousChildren?: Readonly<Record<string, readonly Row[]>>;
}

/** What the in-transaction hook gets. */
export interface WriteHookContext<R> {
  tx: Queryable;
  scope: Scope;
  window: Window;
  now: Date;
  /** The sync.runs row this window's transaction writes. */
  runId: number;
  changes: readonly RecordChange<R>[];
}

/** What `fetchWindow` gets; `db` is for short reads only (no transaction, no held client). */
export interface FetchArgs<C> {
  client: C;
  scope: Scope;
  window: Window;
  timezone: string;
  now: Date;
  db: Queryable;
}

/** How far the detail calls of a window have got: calls made of those it has to make. */
export interface FetchProgress {
  done: number;
  total: number;
}

/** What a stream's `splitWindow` may look at: the scope, the run's clock and zone, short reads. */
export type SplitArgs = Pick<FetchArgs<unknown>, 'scope' | 'timezone' | 'now' | 'db'> & {
  /**
   * The raw rows of the answer that reached the row cap (empty after a 413, an oversized body or a
   * timeout): incomplete, but the codes and SKUs they name are parts to ask for.
   */
  cutRows: readonly unknown[];
  /** A split remembered from earlier runs, not forced by an answer: parts known to hold rows suffice. */
  remembered?: boolean;
};

/** One detail call's outcome: the record with its detail, or why it could not be had. */
export type DetailAnswer<R> = { record: R; repaired?: RejectedRecord[] } | { failure: string };

/**
 * A stream's details and its detail queue (sync.detail_requests), run by the detail stage
 * (detailStage.ts) before the write: detail calls for changed list rows, records `wanted`, records
 * with a due request, and records fetched by key (`followDue`, `FetchResult.byKey`). A failure
 * counts an attempt and waits out the one backoff rule; a due request is served, and deleted in
 * the write, when a record of its key is stored with its detail (`has`).
 */
export interface DetailSpec<R, C> {
  /** The record's key in the detail queue (an order number, an IN order number, a SKU). */
  key(record: R): string;
  /** At most this many due requests are read per window, oldest first. */
  limit: number;
  /** Whether a record already carries its detail. */
  has(record: R): boolean;
  /** Records that want their detail although unchanged (e.g. products' daily full refresh). */
  wanted?(record: R, window: Window): boolean;
  /** Whether this window fetches by key the due requests it did not list (orders: every window). */
  followDue?(window: Window): boolean;
  /**
   * Whether this window lists every record of its scope (products' whole listing, not split): a due
   * request of a record it does not list names one gone upstream, and is served, not kept forever.
   */
  listsAll?(window: Window): boolean;
  /**
   * The record with its detail (`listed`: the list record, when there is one), or a failure reason
   * (not found, rejected by its schema, failing after retries). Credentials refused: throw, which
   * fails the window.
   */
  fetch(args: { client: C; scope: Scope; key: string; listed: R | undefined }): Promise<DetailAnswer<R>>;
}

/** A stream: name, scope kind, windows, fetch, record -> rows mapping, events subject. */
export interface StreamDefinition<R = unknown, C = unknown> {
  name: StreamName;
  scopeKind: Scope['kind'];
  /** Pure: which windows to read this run, from the cursor, lookback and re-read horizons. */
  planWindows(input: PlanInput): Window[];
  /** One window's list calls (no transaction open). Throwing fails the window (it may be split). */
  fetchWindow(args: FetchArgs<C>): Promise<FetchResult<R>>;
  entity: RecordEntity<R>;
  /**
   * How a 'snapshot' or 'filter' window whose answer is too large is divided into narrower filters;
   * null when it cannot be divided further (its finest filter). 'minute' and 'day' windows are
   * always halved in time, down to `minWindowSize`.
   * It may read the warehouse (short queries through `db`): which parts exist can depend on the
   * data, e.g. the sub-inventory codes and SKUs known for a warehouse.
   */
  splitWindow?(window: Window, args: SplitArgs): Window[] | null | Promise<Window[] | null>;
  /** Detail calls and the detail queue (detailStage.ts). */
  details?: DetailSpec<R, C>;
  /** Follows up the records an open list no longer names, once their absence is confirmed. */
  followGone?(args: FetchArgs<C>, result: FetchResult<R>, gone: readonly string[]): Promise<FetchResult<R>>;
  /** Subject kind of derived events (docs/events.md), e.g. 'shipment'; none: no events. */
  subjectKind?: string;
  /**
   * The records the event rules compare (default: `previousRow.raw` and the record as received,
   * or the engine-made row's `raw`): streams whose rules read more than the parent row holds.
   */
  eventRecords?(change: RecordChange<R>): { previous: unknown; current: unknown };
  /** Called after the window's rows are written, inside the same transaction (history, requests). */
  afterWrite?(ctx: WriteHookContext<R>): Promise<void>;
}

/** How the window's events are delivered: decided per change, the same for every kind of run. */
export interface EventPolicy {
  /** The scope's initial load is unfinished: every event is history (stored, not delivered). */
  initialLoad: boolean;
  /** Records first seen now whose event time is older than this are history too. */
  historyBefore: Date | undefined;
  /** Deliver even history (`--emit-events`, FULFILLMENT_DELIVER_INITIAL_EVENTS). */
  deliverHistory: boolean;
}

/**
 * Turns a window's changes into outbox events inside its transaction; returns how many were newly
 * stored. Built by src/events (`createEventSink`); absent: no events.
 */
export type EventSink = (args: {
  tx: Queryable;
  stream: StreamName;
  scope: Scope;
  subjectKind: string;
  changes: ReadonlyArray<{
    kind: 'inserted' | 'updated';
    previous: unknown;
    current: unknown;
  }>;
  detectedAt: Date;
  policy: EventPolicy;
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
  /** Snapshot windows whose vanish detection was suspended (a rejected row's key was unreadable). */
  vanishChecksSkipped?: number;
  /** Answers whose large shrink no second read confirmed, and the rows they kept (confirmShrink.ts). */
  vanishWithheld?: { answers: number; rows: number };
  /** Records repaired (stored with an unstorable character removed or replaced). */
  repaired?: number;
  /** Detail calls that failed this run (the records are retried later with backoff). */
  detailFailures?: number;
  /** The sync.runs row of the last window this run stored. */
  lastRunId?: number;
  /** Adaptive windows: the size this run planned with, and the next run's when it changed. */
  windowSize?: { planned: number; next?: number; reason?: string };
}
