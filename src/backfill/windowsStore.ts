import type { Pool } from 'pg';
import type { TimeWindow } from '../worker/seams.ts';

/** Identity of one backfill window in sync.backfill_windows. */
export interface BackfillWindowKey {
  backfillId: string;
  stream: string;
  scope: string;
  window: TimeWindow;
}

/** The id of a backfill: the same command line resumes the same backfill. */
export function backfillIdOf(stream: string, fromDay: string, toDay: string): string {
  return `${stream}:${fromDay}..${toDay}`;
}

/** Windows of this backfill and scope already finished, as `from|to` epoch-ms keys. */
export async function finishedWindows(
  pool: Pool,
  backfillId: string,
  stream: string,
  scope: string,
): Promise<Set<string>> {
  const res = await pool.query<{ s: Date; e: Date }>(
    `SELECT window_start AS s, window_end AS e FROM sync.backfill_windows
      WHERE backfill_id = $1 AND stream = $2 AND scope = $3`,
    [backfillId, stream, scope],
  );
  return new Set(res.rows.map((r) => windowKey({ from: r.s, to: r.e })));
}

/** Stable key of a window for set membership. */
export function windowKey(window: TimeWindow): string {
  return `${window.from.getTime()}|${window.to.getTime()}`;
}

/** Records a finished window (idempotent: a retried window keeps its first record). */
export async function markWindowFinished(pool: Pool, key: BackfillWindowKey, fetched: number): Promise<void> {
  await pool.query(
    `INSERT INTO sync.backfill_windows (backfill_id, stream, scope, window_start, window_end, fetched)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
    [key.backfillId, key.stream, key.scope, key.window.from, key.window.to, fetched],
  );
}
