import type pg from 'pg';
import { waitFor } from '../../helpers/waitFor.ts';

/** The application name of a worker's sync pool (src/worker/pools.ts): its runs write through it. */
export const WORKER_SYNC_APPLICATION = 'fulfillment-sync worker sync';

/** A worker session seen inside a write transaction. */
export interface OpenWrite {
  pid: number;
  /** Its transaction id (a fresh cluster: epoch 0, so the 32-bit xid is the full xid8). */
  xid: string;
}

/**
 * A worker's sync connections inside a window's write transaction right now, as pg_stat_activity
 * shows them: sessions of the worker's sync pool on this database whose transaction has run more
 * than one statement (xact_start before query_start: an explicit BEGIN, not one autocommitted
 * lease renewal), has written or locked rows (it holds a transaction id) and is not already
 * committing. That is the commit of a window (src/sync/commitWindow.ts) between its lease check and
 * its COMMIT.
 */
export async function openWrites(pool: pg.Pool, options: { held?: boolean } = {}): Promise<OpenWrite[]> {
  // With `held`, only sessions waiting for a lock: the commits `holdCommitsAtCursor` holds (other
  // short write transactions of the pool, e.g. the detail-request queue, commit too fast to aim at).
  const res = await pool.query<{ pid: number; xid: string }>(
    `SELECT pid, backend_xid::text AS xid FROM pg_stat_activity
      WHERE datname = current_database() AND application_name = $1
        AND xact_start IS NOT NULL AND xact_start < query_start AND backend_xid IS NOT NULL
        AND query NOT ILIKE 'commit%' AND ($2::boolean IS NOT TRUE OR wait_event_type = 'Lock')`,
    [WORKER_SYNC_APPLICATION, options.held ?? false],
  );
  return res.rows;
}

/**
 * Polls until a worker is mid-write and answers those transactions at once (so the caller can kill
 * the worker inside them), or answers [] when `timeoutMs` passes first.
 */
export async function awaitOpenWrites(
  pool: pg.Pool,
  timeoutMs: number,
  options: { held?: boolean } = {},
): Promise<OpenWrite[]> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const open = await openWrites(pool, options);
    if (open.length > 0) return open;
  }
  return [];
}

/**
 * After the worker died: waits until Postgres has ended its sessions, then answers how many of the
 * `writes` seen before the kill were rolled back (pg_xact_status 'aborted'): the kill landed inside
 * them. A write that committed just before the signal arrived counts 0.
 */
export async function abortedWrites(pool: pg.Pool, writes: readonly OpenWrite[]): Promise<number> {
  if (writes.length === 0) return 0;
  const pids = writes.map((w) => w.pid);
  await waitFor(
    'the killed worker sessions to end',
    async () =>
      (await pool.query('SELECT 1 FROM pg_stat_activity WHERE pid = ANY($1::int[])', [pids])).rowCount === 0,
    30_000,
  );
  const res = await pool.query<{ status: string | null }>(
    'SELECT pg_xact_status(x::xid8) AS status FROM unnest($1::text[]) AS x',
    [writes.map((w) => w.xid)],
  );
  return res.rows.filter((r) => r.status === 'aborted').length;
}

/**
 * Holds every window commit inside its transaction until `release`: an EXCLUSIVE lock on
 * sync.cursors lets a commit write its rows, children and events, then makes it wait at its cursor
 * move (src/sync/commitWindow.ts moves the cursor last), so a kill aimed at it lands mid-write
 * whatever the machine's timing; reads of the cursors go on. Without it, a commit lasts a few
 * milliseconds and most aimed kills on a busy machine land just after it.
 */
export async function holdCommitsAtCursor(pool: pg.Pool): Promise<{ release: () => Promise<void> }> {
  const client = await pool.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE sync.cursors IN EXCLUSIVE MODE');
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      try {
        await client.query('ROLLBACK');
      } finally {
        client.release();
      }
    },
  };
}
