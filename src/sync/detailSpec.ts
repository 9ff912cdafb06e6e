import type { RejectedRecord } from './fetchResult.ts';
import type { Scope, Window } from './window.ts';

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
