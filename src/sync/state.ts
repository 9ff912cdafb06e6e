import type { PoolClient } from 'pg';
import type { CursorState, RejectedRecord, RunCounts, RunStatus, Scope } from './types.ts';

/**
 * The engine's own bookkeeping in schema `sync`: cursors, the run log and rejected records.
 * Plain SQL on the caller's client, so each statement joins the caller's transaction.
 */

type Queryable = Pick<PoolClient, 'query'>;

/** The advisory lock key of one stream and scope, as text (hashed to a bigint in SQL). */
function lockKey(stream: string, scope: Scope): string {
  return `${stream}:${scope.kind}:${scope.id}`;
}

/**
 * Takes the session-level advisory lock of one stream and scope on `conn` (a bigint hash, the
 * same in every process): 'wait' blocks until it is free, 'skip' answers false when another
 * session holds it. Held until `unlockStreamScope` or the session ends, so a whole run (fetch
 * and write) runs under it; the caller must unlock before releasing `conn` to its pool.
 */
export async function lockStreamScope(
  conn: Queryable,
  stream: string,
  scope: Scope,
  mode: 'wait' | 'skip',
): Promise<boolean> {
  const key = lockKey(stream, scope);
  if (mode === 'wait') {
    await conn.query('SELECT pg_advisory_lock(hashtextextended($1, 0))', [key]);
    return true;
  }
  const res = await conn.query('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok', [key]);
  return Boolean(res.rows[0]?.ok);
}

/** Releases the lock `lockStreamScope` took on `conn`; answers false if this session did not hold it. */
export async function unlockStreamScope(conn: Queryable, stream: string, scope: Scope): Promise<boolean> {
  const res = await conn.query('SELECT pg_advisory_unlock(hashtextextended($1, 0)) AS ok', [
    lockKey(stream, scope),
  ]);
  return Boolean(res.rows[0]?.ok);
}

/** The cursor of a stream and scope (empty before its first success). */
export async function readCursor(db: Queryable, stream: string, scope: Scope): Promise<CursorState> {
  const res = await db.query(
    `SELECT position_at, last_success_at, (position->>'initialLoadPending')::boolean AS pending
       FROM sync.cursors WHERE stream = $1 AND scope = $2`,
    [stream, scope.id],
  );
  const row = res.rows[0] as
    | { position_at: Date | null; last_success_at: Date | null; pending: boolean | null }
    | undefined;
  return {
    position: row?.position_at ?? undefined,
    lastSuccessAt: row?.last_success_at ?? undefined,
    ...(row?.pending ? { initialLoadPending: true } : {}),
  };
}

/**
 * Where a window of an initial load leaves it: 'pending' (more windows of the run to come; the
 * next run is still an initial load if this one stops here) or 'done' (the run's last window).
 */
export type InitialLoadMark = 'pending' | 'done';

/**
 * Moves the cursor forward (never back) and stamps the last success, in the caller's transaction.
 * `updated_at` moves only with the position, so a no-op re-run changes nothing but `last_success_at`.
 * `initialLoad` (windows of an initial load only) keeps or clears `position.initialLoadPending`.
 */
export async function advanceCursor(
  tx: Queryable,
  stream: string,
  scope: Scope,
  advanceTo: Date | undefined,
  at: Date,
  initialLoad?: InitialLoadMark,
): Promise<void> {
  await tx.query(
    `INSERT INTO sync.cursors AS c (stream, scope, position_at, last_success_at, position)
     VALUES ($1, $2, $3, $4, CASE WHEN $5::text = 'pending' THEN '{"initialLoadPending": true}'::jsonb
                                  ELSE '{}'::jsonb END)
     ON CONFLICT (stream, scope) DO UPDATE SET
       position_at = GREATEST(c.position_at, EXCLUDED.position_at),
       last_success_at = EXCLUDED.last_success_at,
       position = CASE $5::text WHEN 'pending' THEN c.position || '{"initialLoadPending": true}'::jsonb
                                WHEN 'done' THEN c.position - 'initialLoadPending'
                                ELSE c.position END,
       updated_at = CASE WHEN GREATEST(c.position_at, EXCLUDED.position_at) IS DISTINCT FROM c.position_at
                         THEN now() ELSE c.updated_at END`,
    [stream, scope.id, advanceTo ?? null, at, initialLoad ?? null],
  );
}

/** One row of `sync.runs`. */
export interface RunRecord extends RunCounts {
  stream: string;
  scope: Scope;
  mode: 'incremental' | 'backfill';
  windowStart: Date | null;
  windowEnd: Date | null;
  window: string;
  startedAt: Date;
  finishedAt: Date;
  status: RunStatus;
  error: string | undefined;
}

/**
 * Takes the id the window's run row will get, before it is written: the events derived in the
 * window carry it as `run_id`, while the row itself is written last with the final counts.
 */
export async function reserveRunId(tx: Queryable): Promise<number> {
  const res = await tx.query(`SELECT nextval(pg_get_serial_sequence('sync.runs', 'id')) AS id`);
  return Number(res.rows[0]?.id);
}

/** Appends a run to the run log (under a reserved id if given); answers its id. */
export async function recordRun(db: Queryable, run: RunRecord, id?: number): Promise<number> {
  const res = await db.query(
    `INSERT INTO sync.runs (id, stream, scope, mode, window_start, window_end, started_at, finished_at, status,
       fetched, inserted, updated, unchanged, rejected, api_calls, events, error)
     VALUES (coalesce($17::bigint, nextval(pg_get_serial_sequence('sync.runs', 'id'))),
       $1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16) RETURNING id`,
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
    ],
  );
  return Number(res.rows[0]?.id);
}

/** Stores rejected upstream records with stream, scope, key if known, reason and raw JSON. */
export async function recordRejected(
  tx: Queryable,
  stream: string,
  scope: Scope,
  runId: number,
  rejected: ReadonlyArray<RejectedRecord & { key?: string | undefined }>,
): Promise<void> {
  if (rejected.length === 0) return;
  await tx.query(
    `INSERT INTO sync.rejected_records (run_id, stream, scope, record_key, reason, raw)
     SELECT $1, $2, $3, k, r, j FROM unnest($4::text[], $5::text[], $6::jsonb[]) AS u(k, r, j)`,
    [
      runId,
      stream,
      scope.id,
      rejected.map((r) => r.key ?? null),
      rejected.map((r) => r.reason),
      rejected.map((r) => JSON.stringify(r.raw ?? null)),
    ],
  );
}
