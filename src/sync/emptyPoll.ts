import type { ChildDiff } from './diff.ts';
import type { PreparedWindow } from './prepareWindow.ts';

/**
 * An empty poll: an incremental window that found nothing to store and nothing to tell. With
 * streams polled every minute (issue 25) such windows are nearly all of them; they write no
 * sync.runs row (the run log would grow by a row a minute per stream and scope for no news) and
 * leave their success on the cursor alone (sync.cursors.last_success_at, last_polled_at), which
 * is what lag, freshness and status read. Pure.
 */

/** What the window's commit knows besides its prepared rows. */
export interface PollFacts {
  /** The cursor moves (incremental runs); backfills always log their windows. */
  movesCursor: boolean;
  /** The run-log details the window gathered (splits, warnings, detail failures...). */
  details: Readonly<Record<string, unknown>>;
  /** Rows an unconfirmed shrink kept (a withheld vanish). */
  vanishWithheld: number;
}

/**
 * Whether a window is an empty poll: no record inserted or updated, no child written or deleted,
 * nothing quarantined or repaired, no detail served, failed or withheld, no withheld vanish, no
 * suspended vanish check, and nothing the run log would keep in its details.
 */
export function isEmptyPoll(prepared: PreparedWindow<unknown>, facts: PollFacts): boolean {
  if (!facts.movesCursor || facts.vanishWithheld > 0) return false;
  if (Object.keys(facts.details).length > 0) return false;
  return (
    prepared.changes.length === 0 &&
    prepared.children.every(({ diff }) => childWritesNothing(diff)) &&
    prepared.rejections.length === 0 &&
    prepared.quarantined === 0 &&
    prepared.repaired === 0 &&
    prepared.served.length === 0 &&
    prepared.detailFailures.length === 0 &&
    prepared.childrenWithheld.length === 0 &&
    !prepared.vanishSkipped &&
    prepared.warnings.length === 0
  );
}

function childWritesNothing(diff: ChildDiff): boolean {
  return diff.inserted.length === 0 && diff.updated.length === 0 && diff.deleted.length === 0;
}
