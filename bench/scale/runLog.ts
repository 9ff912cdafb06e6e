/** What the workers recorded in sync.runs (one row per stored window), summed per stream. */
import type pg from 'pg';

/** One stream's runs since a mark. */
export interface StreamRuns {
  stream: string;
  scopes: number;
  windows: number;
  /** Upstream calls the engine counted (api_calls), detail calls included. */
  calls: number;
  fetched: number;
  inserted: number;
  updated: number;
  unchanged: number;
  rejected: number;
  failedWindows: number;
  /** When the last window finished, by the workers' (virtual) clock, ms since the epoch. */
  lastFinishedAt: number;
}

/** The newest run id: runs after it belong to what comes next. */
export async function runMark(pool: pg.Pool): Promise<number> {
  return Number((await pool.query('SELECT coalesce(max(id), 0) AS id FROM sync.runs')).rows[0].id);
}

/** Runs after `mark`, per stream. */
export async function runsSince(pool: pg.Pool, mark: number): Promise<Map<string, StreamRuns>> {
  const res = await pool.query(
    `SELECT stream, count(DISTINCT scope)::int AS scopes, count(*)::int AS windows,
            coalesce(sum(api_calls), 0)::int AS calls, coalesce(sum(fetched), 0)::int AS fetched,
            coalesce(sum(inserted), 0)::int AS inserted, coalesce(sum(updated), 0)::int AS updated,
            coalesce(sum(unchanged), 0)::int AS unchanged, coalesce(sum(rejected), 0)::int AS rejected,
            (count(*) FILTER (WHERE status = 'failed'))::int AS failed,
            (extract(epoch FROM max(finished_at)) * 1000)::float8 AS last_finished
       FROM sync.runs WHERE id > $1 GROUP BY stream ORDER BY stream`,
    [mark],
  );
  return new Map(
    res.rows.map((r) => [
      r.stream as string,
      {
        stream: r.stream,
        scopes: r.scopes,
        windows: r.windows,
        calls: r.calls,
        fetched: r.fetched,
        inserted: r.inserted,
        updated: r.updated,
        unchanged: r.unchanged,
        rejected: r.rejected,
        failedWindows: r.failed,
        lastFinishedAt: r.last_finished ?? 0,
      },
    ]),
  );
}

/** Accounts with order details still due (not quarantined, not waiting out a retry backoff). */
export async function accountsWithDueOrders(pool: pg.Pool, now: Date): Promise<string[]> {
  const res = await pool.query<{ scope: string }>(
    `SELECT DISTINCT scope FROM sync.detail_requests
      WHERE stream = 'orders' AND quarantined_at IS NULL AND (next_attempt_at IS NULL OR next_attempt_at <= $1)
      ORDER BY scope`,
    [now],
  );
  return res.rows.map((r) => r.scope);
}

/** How many scheduled (stream, scope) pairs have finished a first load (orders run on demand). */
export async function loadedPairs(pool: pg.Pool): Promise<number> {
  const res = await pool.query(
    `SELECT count(*)::int AS n FROM sync.cursors
      WHERE stream <> 'orders' AND last_success_at IS NOT NULL AND coalesce((position->>'initialLoadPending')::boolean, false) = false`,
  );
  return res.rows[0].n;
}
