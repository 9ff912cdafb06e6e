import type { PoolClient } from 'pg';
import type { CursorState, RejectedRecord, RunCounts, RunStatus, Scope } from './types.ts';

/**
 * The engine's own bookkeeping in schema `sync`: cursors, the run log and rejected records.
 * Plain SQL on the caller's client, so each statement joins the caller's transaction.
 */

type Queryable = Pick<PoolClient, 'query'>;

/** The lock key of one stream and scope: a bigint hash, the same in every process. */
export async function lockStreamScope(
  tx: Queryable,
  stream: string,
  scope: Scope,
  mode: 'wait' | 'skip',
): Promise<boolean> {
  const key = `${stream}:${scope.kind}:${scope.id}`;
  if (mode === 'wait') {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
    return true;
  }
  const res = await tx.query('SELECT pg_try_advisory_xact_lock(hashtextextended($1, 0)) AS ok', [key]);
  return Boolean(res.rows[0]?.ok);
}

/** The cursor of a stream and scope (empty before its first success). */
export async function readCursor(db: Queryable, stream: string, scope: Scope): Promise<CursorState> {
  const res = await db.query(
    'SELECT position, last_success_at FROM sync.cursors WHERE stream = $1 AND scope = $2',
    [stream, scope.id],
  );
  const row = res.rows[0] as { position: Date | null; last_success_at: Date | null } | undefined;
  return { position: row?.position ?? undefined, lastSuccessAt: row?.last_success_at ?? undefined };
}

/** Moves the cursor forward (never back) and stamps the last success, in the caller's transaction. */
export async function advanceCursor(
  tx: Queryable,
  stream: string,
  scope: Scope,
  advanceTo: Date | undefined,
  at: Date,
): Promise<void> {
  await tx.query(
    `INSERT INTO sync.cursors (stream, scope, scope_kind, position, last_success_at)
     VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (stream, scope) DO UPDATE SET
       position = CASE WHEN EXCLUDED.position IS NULL THEN sync.cursors.position
                       ELSE GREATEST(sync.cursors.position, EXCLUDED.position) END,
       last_success_at = EXCLUDED.last_success_at`,
    [stream, scope.id, scope.kind, advanceTo ?? null, at],
  );
}

/** One row of `sync.runs`. */
export interface RunRecord extends RunCounts {
  stream: string;
  scope: Scope;
  windowStart: Date | null;
  windowEnd: Date | null;
  window: string;
  startedAt: Date;
  finishedAt: Date;
  status: RunStatus;
  error: string | undefined;
}

/** Appends a run to the run log. */
export async function recordRun(db: Queryable, run: RunRecord): Promise<void> {
  await db.query(
    `INSERT INTO sync.runs (stream, scope, window_start, window_end, window_label, started_at, finished_at, status,
       fetched, inserted, updated, unchanged, rejected, api_calls, events, error)
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16)`,
    [
      run.stream,
      run.scope.id,
      run.windowStart,
      run.windowEnd,
      run.window,
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
    ],
  );
}

/** Stores rejected upstream records with stream, scope, key if known, reason and raw JSON. */
export async function recordRejected(
  tx: Queryable,
  stream: string,
  scope: Scope,
  rejected: ReadonlyArray<RejectedRecord & { key?: string | undefined }>,
): Promise<void> {
  if (rejected.length === 0) return;
  await tx.query(
    `INSERT INTO sync.rejected_records (stream, scope, record_key, reason, raw)
     SELECT $1, $2, k, r, j FROM unnest($3::text[], $4::text[], $5::jsonb[]) AS u(k, r, j)`,
    [
      stream,
      scope.id,
      rejected.map((r) => r.key ?? null),
      rejected.map((r) => r.reason),
      rejected.map((r) => JSON.stringify(r.raw ?? null)),
    ],
  );
}
