import type { Queryable } from '../db/queryable.ts';
import type { RunCounts, RunStatus, Scope } from './types.ts';

/** `sync.runs`, the run log: one row per stream x scope x window run. */

/** One row of `sync.runs`. */
export interface RunRecord extends RunCounts {
  stream: string;
  scope: Scope;
  mode: 'incremental' | 'backfill';
  /** The fence of the run's lease: shared by the parts of one run (several rows can overlap in time). */
  leaseFence: number | null;
  windowStart: Date | null;
  windowEnd: Date | null;
  window: string;
  startedAt: Date;
  finishedAt: Date;
  status: RunStatus;
  error: string | undefined;
  /** What the run decided on the way (splits, detail failures, warnings). */
  details?: Record<string, unknown> | undefined;
  /** Rows an unconfirmed shrink kept: the answer omitted them, no second read agreed (0: none). */
  vanishWithheld?: number | undefined;
}

/**
 * Takes the id the window's run row will get, before it is written: the events derived in the
 * window carry it as `run_id`, while the row itself is written last with the final counts.
 */
export async function reserveRunId(tx: Queryable): Promise<number> {
  const res = await tx.query<{ id: string }>(
    `SELECT nextval(pg_get_serial_sequence('sync.runs', 'id')) AS id`,
  );
  return Number(res.rows[0]?.id);
}

/** Appends a run to the run log (under a reserved id if given); answers its id. */
export async function recordRun(db: Queryable, run: RunRecord, id?: number): Promise<number> {
  const details = run.details && Object.keys(run.details).length > 0 ? JSON.stringify(run.details) : null;
  const res = await db.query<{ id: string }>(
    `INSERT INTO sync.runs (id, stream, scope, mode, window_start, window_end, started_at, finished_at, status,
       fetched, inserted, updated, unchanged, rejected, api_calls, events, error, details, lease_fence, vanish_withheld)
     VALUES (coalesce($17::bigint, nextval(pg_get_serial_sequence('sync.runs', 'id'))),
       $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$18::jsonb,$19,$20) RETURNING id`,
    [
      run.stream,
      run.scope.id,
      run.mode,
      run.windowStart,
      run.windowEnd,
      run.startedAt,
      run.finishedAt,
      run.status,
      run.fetched,
      run.inserted,
      run.updated,
      run.unchanged,
      run.rejected,
      run.apiCalls,
      run.events,
      run.error ?? null,
      id ?? null,
      details,
      run.leaseFence,
      run.vanishWithheld ?? 0,
    ],
  );
  return Number(res.rows[0]?.id);
}
