import type { Queryable } from '../db/queryable.ts';
import { leastOrNull, STREAM_COVERAGE_SQL } from './sourceCoverage.ts';
import { analyticsRelation } from './views.ts';

/**
 * sync.analytics_refreshes, the record of each maintained table (read by operators and metrics;
 * readers see analytics.freshness). Written by the refresh itself, in its transaction.
 */

/** What a refresh did, as the record keeps it. */
export interface RefreshFacts {
  relation: string;
  durationMs: number;
  /** Queued changes taken in. */
  changes: number;
  /** Queued changes left for the next refresh: while any, the table is not as of now. */
  pending: number;
  /** When the newest change taken in was queued (null: none taken in). */
  newestChangeAt: Date | null;
  rebuilt: boolean;
}

/**
 * Records a refresh. `refreshed_as_of` moves only when nothing visible was left queued: to the
 * transaction's start (every change committed before it is in), or earlier if a table it reads is
 * older; `source_data_as_of` with it, from the streams' coverage in the same snapshot.
 */
export async function recordRefresh(db: Queryable, facts: RefreshFacts): Promise<void> {
  const { models, streams } = analyticsRelation(facts.relation);
  const upstream = (column: string) =>
    models.map((m) => `(SELECT ${column} FROM sync.analytics_refreshes WHERE relation = '${m}')`);
  const coverage = `(SELECT CASE WHEN count(as_of) < cardinality($7::text[]) THEN NULL ELSE min(as_of) END
                       FROM coverage)`;
  const sources =
    streams.length > 0 ? [coverage, ...upstream('source_data_as_of')] : upstream('source_data_as_of');
  await db.query(
    `WITH coverage AS (SELECT * FROM (${STREAM_COVERAGE_SQL}) c WHERE c.stream = ANY ($7::text[])),
     now_known AS (SELECT ${leastOrNull(['now()', ...upstream('refreshed_as_of')])} AS refreshed_as_of,
                          ${leastOrNull(sources)} AS source_data_as_of)
     INSERT INTO sync.analytics_refreshes AS r
       (relation, changed_at, refreshed_as_of, source_data_as_of, last_refresh_at, last_duration_ms, last_changes,
        pending_changes, last_rebuild_at, last_error, last_error_at)
     SELECT $1, $2, CASE WHEN $5 = 0 THEN k.refreshed_as_of END, CASE WHEN $5 = 0 THEN k.source_data_as_of END,
            clock_timestamp(), $3, $4, $5, CASE WHEN $6 THEN clock_timestamp() END, NULL, NULL
       FROM now_known k
     ON CONFLICT (relation) DO UPDATE SET
       changed_at = coalesce(excluded.changed_at, r.changed_at),
       refreshed_as_of = CASE WHEN $5 = 0 THEN excluded.refreshed_as_of ELSE r.refreshed_as_of END,
       source_data_as_of = CASE WHEN $5 = 0 THEN excluded.source_data_as_of ELSE r.source_data_as_of END,
       last_refresh_at = excluded.last_refresh_at, last_duration_ms = excluded.last_duration_ms,
       last_changes = excluded.last_changes, pending_changes = excluded.pending_changes,
       last_rebuild_at = coalesce(excluded.last_rebuild_at, r.last_rebuild_at),
       last_error = NULL, last_error_at = NULL`,
    [
      facts.relation,
      facts.newestChangeAt,
      facts.durationMs,
      facts.changes,
      facts.pending,
      facts.rebuilt,
      streams,
    ],
  );
}

/** Records a failed refresh (outside its rolled-back transaction): the error, and when. */
export async function recordFailure(db: Queryable, relation: string, message: string): Promise<void> {
  await db.query(
    `INSERT INTO sync.analytics_refreshes (relation, last_error, last_error_at) VALUES ($1, $2, clock_timestamp())
     ON CONFLICT (relation) DO UPDATE SET last_error = excluded.last_error, last_error_at = excluded.last_error_at`,
    [relation, message],
  );
}
