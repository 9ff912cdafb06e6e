import type { Queryable } from '../../db/queryable.ts';

/**
 * The queued changes a refresh takes in: those of `relation` with an id up to `maxId`, as its
 * REPEATABLE READ snapshot sees them. Statements select them with `$1` and `$2` (QUEUED below);
 * the refresh deletes exactly those in the same transaction.
 */
export interface Batch {
  relation: string;
  maxId: number;
}

/** The rows of a batch in SQL: `FROM ${QUEUED} WHERE ${IN_BATCH}`, as `q` ($1 relation, $2 maxId). */
export const QUEUED = 'sync.analytics_changes q';
export const IN_BATCH = 'q.relation = $1 AND q.id <= $2';

/** One table of schema analytics the worker keeps (src/analytics/views.ts lists them). */
export interface AnalyticsModel {
  /** schema.name of the table (the one its refresh record is kept under). */
  relation: string;
  /**
   * Recomputes what the batch's changes touch, in the caller's transaction; with no batch (nothing
   * queued), only what time alone changes (a new day).
   */
  apply(db: Queryable, batch: Batch | null): Promise<void>;
  /** Recomputes everything (the same queries over every key), in the caller's transaction. */
  rebuild(db: Queryable): Promise<void>;
}

/** Asks for a rebuild of `relations` (a null key), e.g. of the tables reading a rebuilt one. */
export async function requestRebuild(db: Queryable, relations: readonly string[]): Promise<void> {
  if (relations.length === 0) return;
  await db.query('INSERT INTO sync.analytics_changes (relation, key) SELECT unnest($1::text[]), NULL', [
    relations,
  ]);
}
