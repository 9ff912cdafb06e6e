import type { Queryable } from '../db/queryable.ts';
import type { Absent, ShrinkOutcome } from './shrinkRule.ts';
import type { Scope, Window } from './window.ts';

/** What a window's list calls get and answer, and what a split of a window may look at. */
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
