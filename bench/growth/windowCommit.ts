/**
 * A sync window's commit as the engine writes its bookkeeping (src/sync/commitWindow.ts): in one
 * transaction, reserve the run id, add the window's events to the outbox, write the run row and move
 * the cursor, announce the events. Timed from BEGIN to COMMIT, back to back on one connection.
 */
import type { Pool, PoolClient } from 'pg';

/** Events one window writes (a busy shipments window). */
const EVENTS_PER_WINDOW = 20;

let counter = 0;

async function commitOneWindow(client: PoolClient, scope: string): Promise<number> {
  const started = performance.now();
  const n = ++counter;
  await client.query('BEGIN');
  try {
    const { rows } = await client.query<{ id: string }>(
      `SELECT nextval(pg_get_serial_sequence('sync.runs', 'id')) AS id`,
    );
    const runId = Number(rows[0]?.id);
    await client.query(
      `INSERT INTO sync.events (id, type, subject_kind, subject_key, occurred_at, detected_at, data, stream, scope, run_id)
       SELECT 'ev_win_' || $1::bigint || '_' || i, 'shipment.tracking_event', 'shipment', 'W' || i, now(), now(),
              jsonb_build_object('current', jsonb_build_object('pad', repeat('x', 900)), 'previous', null, 'changes', '[]'::jsonb),
              'shipments', $2, $1
         FROM generate_series(1, $3::int) i
       ON CONFLICT (id) DO NOTHING`,
      [runId, scope, EVENTS_PER_WINDOW],
    );
    await client.query(
      `INSERT INTO sync.runs (id, stream, scope, started_at, finished_at, status, fetched, inserted, events, api_calls)
       VALUES ($1, 'shipments', $2, now(), now(), 'succeeded', 50, 20, $3, 1)`,
      [runId, scope, EVENTS_PER_WINDOW],
    );
    await client.query(
      `UPDATE sync.cursors SET last_run_id = $1, last_success_at = now(), position_at = now(), updated_at = now()
        WHERE stream = 'shipments' AND scope = $2`,
      [runId, scope],
    );
    await client.query(`SELECT pg_notify('fulfillment_events_bench', $1)`, [String(n)]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
  return performance.now() - started;
}

/** Commits windows back to back until `done()` (checked between commits); answers each one's milliseconds. */
export async function commitWindowsUntil(pool: Pool, scope: string, done: () => boolean): Promise<number[]> {
  const client = await pool.connect();
  const times: number[] = [];
  try {
    while (!done()) times.push(await commitOneWindow(client, scope));
  } finally {
    client.release();
  }
  return times;
}

/** The q-quantile (0..1) of some milliseconds, nearest rank. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}
