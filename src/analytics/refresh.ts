import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { StreamName } from '../config/types.ts';
import type { Queryable } from '../db/queryable.ts';
import { MATERIALIZED_ANALYTICS, viewsChangedBy, viewsReading } from './views.ts';

/**
 * Keeps the analytics materialized views fresh without refreshing them after every run: a run that
 * wrote rows marks the views over its tables stale (`markAnalyticsStale`), and `refreshStaleAnalytics`
 * refreshes the stale ones whose last refresh is older than a minimum interval, one process at a
 * time per view. REFRESH ... CONCURRENTLY leaves readers on the old rows while it runs.
 */

/** Refresh a stale view at most this often by default: a year of shipments takes seconds to refresh. */
export const DEFAULT_REFRESH_INTERVAL_MS = 5 * 60_000;

/** Marks the views over what `stream` writes as changed now. */
export async function markAnalyticsStale(db: Queryable, stream: StreamName): Promise<void> {
  await markChanged(db, viewsChangedBy(stream));
}

async function markChanged(db: Queryable, relations: readonly string[]): Promise<void> {
  if (relations.length === 0) return;
  await db.query(
    `INSERT INTO sync.analytics_refreshes (relation, changed_at)
     SELECT unnest($1::text[]), clock_timestamp()
     ON CONFLICT (relation) DO UPDATE SET changed_at = excluded.changed_at`,
    [relations],
  );
}

/** What one view's refresh did. */
export interface RefreshOutcome {
  relation: string;
  status: 'refreshed' | 'busy' | 'failed';
  durationMs: number;
  error?: string;
}

export interface RefreshOptions {
  /** Skip a stale view refreshed less than this long ago (0: refresh every stale view). */
  minIntervalMs?: number;
  logger?: Pick<Logger, 'info' | 'warn'>;
}

/**
 * Refreshes every stale view (sources changed after its last refresh began) not refreshed within
 * `minIntervalMs`, in dependency order; a view whose refresh another process holds is skipped
 * ('busy': that refresh will carry the changes or leave it stale for the next call). A failed
 * refresh is recorded and logged, never thrown: the sync that triggered it succeeded.
 */
export async function refreshStaleAnalytics(
  pool: Pool,
  options: RefreshOptions = {},
): Promise<RefreshOutcome[]> {
  const minIntervalMs = options.minIntervalMs ?? DEFAULT_REFRESH_INTERVAL_MS;
  const outcomes: RefreshOutcome[] = [];
  for (const { relation } of MATERIALIZED_ANALYTICS) {
    const due = await pool.query(
      `SELECT 1 FROM sync.analytics_refreshes
        WHERE relation = $1 AND changed_at IS NOT NULL
          AND (refreshed_as_of IS NULL OR (changed_at >= refreshed_as_of
               AND refreshed_as_of <= clock_timestamp() - make_interval(secs => $2::double precision / 1000)))`,
      [relation, minIntervalMs],
    );
    if (due.rows.length === 0) continue;
    const outcome = await refreshOne(pool, relation);
    outcomes.push(outcome);
    if (outcome.status === 'refreshed') {
      options.logger?.info({ relation, durationMs: outcome.durationMs }, 'analytics view refreshed');
    } else if (outcome.status === 'failed') {
      options.logger?.warn({ relation, error: outcome.error }, 'analytics view refresh failed');
    }
  }
  return outcomes;
}

/** Refreshes every analytics view now, stale or not (after a first load, in tests, from the CLI). */
export async function refreshAllAnalytics(pool: Pool, options: Omit<RefreshOptions, 'minIntervalMs'> = {}) {
  await markChanged(
    pool,
    MATERIALIZED_ANALYTICS.map((v) => v.relation),
  );
  return refreshStaleAnalytics(pool, { ...options, minIntervalMs: 0 });
}

async function refreshOne(pool: Pool, relation: string): Promise<RefreshOutcome> {
  const client = await pool.connect();
  const started = performance.now();
  try {
    await client.query('BEGIN');
    const lock = await client.query<{ locked: boolean }>(
      `SELECT pg_try_advisory_xact_lock(hashtext('analytics-refresh:' || $1)) AS locked`,
      [relation],
    );
    if (!lock.rows[0]?.locked) {
      await client.query('ROLLBACK');
      return { relation, status: 'busy', durationMs: 0 };
    }
    // The planner cannot know how many days a version or an activity span covers (generate_series
    // counts 1,000), so it overestimates daily_inventory by orders of magnitude and would JIT-compile
    // the refresh: seconds of compiling for a query that runs in a fraction of that.
    await client.query('SET LOCAL jit = off');
    // Taken before the refresh's snapshot: every change committed before it is in the result.
    const asOf = await client.query<{ at: Date }>('SELECT clock_timestamp() AS at');
    await client.query(`REFRESH MATERIALIZED VIEW CONCURRENTLY ${quoteRelation(relation)}`);
    const durationMs = Math.round(performance.now() - started);
    await client.query(
      `INSERT INTO sync.analytics_refreshes (relation, refreshed_as_of, last_duration_ms, last_error)
       VALUES ($1, $2, $3, NULL)
       ON CONFLICT (relation) DO UPDATE
         SET refreshed_as_of = excluded.refreshed_as_of, last_duration_ms = excluded.last_duration_ms,
             last_error = NULL`,
      [relation, asOf.rows[0]!.at, durationMs],
    );
    await markChanged(client, viewsReading(relation));
    await client.query('COMMIT');
    return { relation, status: 'refreshed', durationMs };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    const message = (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
    await pool
      .query(
        `INSERT INTO sync.analytics_refreshes (relation, last_error, last_error_at) VALUES ($1, $2, now())
         ON CONFLICT (relation) DO UPDATE SET last_error = excluded.last_error, last_error_at = excluded.last_error_at`,
        [relation, message],
      )
      .catch(() => {});
    return {
      relation,
      status: 'failed',
      durationMs: Math.round(performance.now() - started),
      error: message,
    };
  } finally {
    client.release();
  }
}

function quoteRelation(relation: string): string {
  return relation
    .split('.')
    .map((part) => `"${part.replaceAll('"', '""')}"`)
    .join('.');
}

/** Whether a run changed what analytics views read: it inserted or updated rows. */
export function runChangedRows(result: { inserted: number; updated: number }): boolean {
  return result.inserted + result.updated > 0;
}

/**
 * After a stream run: marks the views over its tables stale if it wrote rows, then refreshes what
 * is due. Never throws: the run itself succeeded; a failed mark or refresh is logged and retried
 * by the next run's call.
 */
export async function refreshAfterRun(
  pool: Pool,
  result: { stream: StreamName; inserted: number; updated: number },
  options: RefreshOptions = {},
): Promise<RefreshOutcome[]> {
  try {
    if (runChangedRows(result)) await markAnalyticsStale(pool, result.stream);
    return await refreshStaleAnalytics(pool, options);
  } catch (error) {
    options.logger?.warn(
      { error: error instanceof Error ? error.message : String(error) },
      'analytics refresh skipped',
    );
    return [];
  }
}
