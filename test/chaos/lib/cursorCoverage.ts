import type pg from 'pg';

/**
 * Cursors ahead of the stored data. A time-window stream's cursor (`sync.cursors.position_at`) is
 * the end of the last window stored, moved only in the transaction that writes that window's rows
 * and its run row (src/sync/commitWindow.ts; a window's `advanceTo` is its end, src/sync/plan.ts).
 * So every position must be covered by a committed incremental run of the same stream and scope
 * (status succeeded or partial) whose `window_end` reaches it. A cursor committed before its rows
 * (and then killed, or rolled back) points past every stored window: the next run would start
 * after data that was never written. A window that found nothing new (an empty poll) writes no run
 * row: it moves the cursor in its own transaction, which stamps last_polled_at; a cursor ahead of
 * every run row is covered when that stamp is newer than its newest run row (an empty poll moved it).
 *
 * Answers the cursors with no such run, as `stream/scope@position` lines.
 */
export async function cursorsAhead(pool: pg.Pool): Promise<string[]> {
  const res = await pool.query<{ stream: string; scope: string; position_at: Date }>(
    `SELECT c.stream, c.scope, c.position_at FROM sync.cursors c
      WHERE c.position_at IS NOT NULL
        AND NOT EXISTS (
          SELECT 1 FROM sync.runs r
           WHERE r.stream = c.stream AND r.scope = c.scope AND r.mode = 'incremental'
             AND r.status IN ('succeeded', 'partial') AND r.window_end >= c.position_at)
        AND NOT (c.last_polled_at IS NOT NULL AND c.last_polled_at >= coalesce(
              (SELECT max(r.finished_at) FROM sync.runs r WHERE r.stream = c.stream AND r.scope = c.scope),
              '-infinity'))
      ORDER BY c.stream, c.scope`,
  );
  return res.rows.map((r) => `${r.stream}/${r.scope}@${r.position_at.toISOString()}`);
}
