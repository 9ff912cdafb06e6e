import type { StreamName } from '../config/types.ts';
import type { DetailSpec } from './detailSpec.ts';
import type { RecordChange, RecordEntity, WriteHookContext } from './entity.ts';
import type { FetchArgs, FetchResult, SplitArgs } from './fetchResult.ts';
import type { PlanInput, Scope, Window } from './window.ts';

/**
 * The engine seam: what one stream must describe so that `runStream` can read it, diff it against
 * the warehouse and write only what changed. A stream is one small file in `src/streams/` exporting
 * a `StreamDefinition`; the engine owns leases, transactions, cursors, the run log, rejections,
 * the detail queue and events.
 *
 * The words the seam is made of live one concept a file (window.ts, fetchResult.ts, entity.ts,
 * detailSpec.ts, eventSink.ts, runResult.ts); they are re-exported here so that a stream and the
 * engine read the whole seam from one place.
 */

export type { DetailAnswer, DetailSpec } from './detailSpec.ts';
export type { ChildEntity, RecordChange, RecordEntity, Row, RowContext, WriteHookContext } from './entity.ts';
export type { EventPolicy, EventSink } from './eventSink.ts';
export type {
  FetchArgs,
  FetchProgress,
  FetchResult,
  RejectedRecord,
  SplitArgs,
  WindowWarning,
} from './fetchResult.ts';
export type { RunCounts, RunStatus, StreamRunResult } from './runResult.ts';
export type { CursorState, PlanInput, Scope, Window } from './window.ts';

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
