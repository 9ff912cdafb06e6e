import type pg from 'pg';

/**
 * Two runs of one stream and scope at once, from the run log. The windows of one run share its
 * lease fence (`sync.runs.lease_fence`) and may overlap in time (the next window is fetched while
 * the previous one commits); rows of one stream and scope with different fences are different runs,
 * and their [started_at, finished_at] must never intersect.
 */
export async function overlappingRuns(pool: pg.Pool): Promise<string[]> {
  const res = await pool.query<{ stream: string; scope: string; a: string; b: string }>(
    `SELECT a.stream, a.scope, a.lease_fence AS a, b.lease_fence AS b
       FROM sync.runs a JOIN sync.runs b
         ON a.stream = b.stream AND a.scope = b.scope AND a.id < b.id AND a.lease_fence <> b.lease_fence
      WHERE a.started_at < b.finished_at AND b.started_at < a.finished_at
      ORDER BY a.stream, a.scope`,
  );
  return res.rows.map((r) => `${r.stream}/${r.scope} fences ${r.a} and ${r.b}`);
}

/** Run rows with no lease fence (every incremental run holds a lease, so none may lack one). */
export async function runsWithoutFence(pool: pg.Pool): Promise<number> {
  const res = await pool.query<{ n: string }>(
    'SELECT count(*) AS n FROM sync.runs WHERE lease_fence IS NULL',
  );
  return Number(res.rows[0]?.n ?? 0);
}
