import type { PgTable } from 'drizzle-orm/pg-core';
import type { Queryable } from '../db/queryable.ts';
import type { AmbiguousTime } from '../time/parse.ts';
import type { Scope, Window } from './window.ts';

/** How a stream's records become rows of its tables, and what a write hands to its hooks. */
/** A row of one table, keyed by snake_case column name; values as the pg driver reads/writes them. */
export type Row = Record<string, unknown>;

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
