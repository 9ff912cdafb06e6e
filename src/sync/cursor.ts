import type { Queryable } from '../db/queryable.ts';
import type { SplitMemory } from './splitMemory.ts';
import type { CursorState, Scope } from './types.ts';

/**
 * `sync.cursors`: where each stream and scope has read up to. Moved only in the transaction that
 * stores the rows it covers, forward only.
 */

/** The cursor of a stream and scope (empty before its first success). */
export async function readCursor(db: Queryable, stream: string, scope: Scope): Promise<CursorState> {
  const res = await db.query<{
    position_at: Date | null;
    last_success_at: Date | null;
    pending: boolean | null;
    loaded_from: string | null;
    window_size: string | null;
    split: SplitMemory | null;
  }>(
    `SELECT position_at, last_success_at, (position->>'initialLoadPending')::boolean AS pending,
            position->>'loadedFrom' AS loaded_from, position->>'windowSize' AS window_size,
            position->'split' AS split
       FROM sync.cursors WHERE stream = $1 AND scope = $2`,
    [stream, scope.id],
  );
  const row = res.rows[0];
  return {
    position: row?.position_at ?? undefined,
    lastSuccessAt: row?.last_success_at ?? undefined,
    ...(row?.pending ? { initialLoadPending: true } : {}),
    ...(row?.loaded_from ? { loadedFrom: new Date(row.loaded_from) } : {}),
    ...(row?.window_size ? { windowSize: Number(row.window_size) } : {}),
    ...(isSplitMemory(row?.split) ? { split: row.split } : {}),
  };
}

/**
 * Where a window of an initial load leaves it: 'pending' (more windows of the run to come; the
 * next run is still an initial load if this one stops here) or 'done' (the run's last window).
 */
export type InitialLoadMark = 'pending' | 'done';

/** How one stored window moves the cursor. */
export interface CursorMove {
  advanceTo: Date | undefined;
  /** The run's clock: stamped as `last_success_at`. */
  at: Date;
  /** Windows of an initial load only. */
  initialLoad?: InitialLoadMark | undefined;
  /** Where the initial load started reading (kept once set). */
  loadedFrom?: Date | undefined;
  /**
   * The wall clock the window was stored at (as its sync.runs row's finished_at), stamped as
   * `last_polled_at`: an empty poll writes no run row, so this tells when the stream last read.
   */
  polledAt?: Date | undefined;
}

/**
 * Moves the cursor forward (never back) and stamps the last success, in the caller's transaction.
 * `updated_at` moves only with the position, so a no-op re-run changes nothing but `last_success_at`;
 * both are the run's clock (`move.at`), like every time the engine writes.
 */
export async function advanceCursor(
  tx: Queryable,
  stream: string,
  scope: Scope,
  move: CursorMove,
): Promise<void> {
  const loadedFrom = move.loadedFrom ? { loadedFrom: move.loadedFrom.toISOString() } : {};
  await tx.query(
    `INSERT INTO sync.cursors AS c (stream, scope, position_at, last_success_at, updated_at, position, last_polled_at)
     VALUES ($1, $2, $3, $4, $4, CASE WHEN $5::text = 'pending' THEN $6::jsonb || '{"initialLoadPending": true}'::jsonb
                                  ELSE $6::jsonb END, $7)
     ON CONFLICT (stream, scope) DO UPDATE SET
       position_at = GREATEST(c.position_at, EXCLUDED.position_at),
       last_success_at = EXCLUDED.last_success_at,
       last_polled_at = coalesce(EXCLUDED.last_polled_at, c.last_polled_at),
       position = $6::jsonb || CASE $5::text WHEN 'pending' THEN c.position || '{"initialLoadPending": true}'::jsonb
                                           WHEN 'done' THEN c.position - 'initialLoadPending'
                                           ELSE c.position END,
       updated_at = CASE WHEN GREATEST(c.position_at, EXCLUDED.position_at) IS DISTINCT FROM c.position_at
                         THEN $4 ELSE c.updated_at END`,
    [
      stream,
      scope.id,
      move.advanceTo ?? null,
      move.at,
      move.initialLoad ?? null,
      JSON.stringify(loadedFrom),
      move.polledAt ?? null,
    ],
  );
}

/** What one run of a stream and scope did, kept on its cursor for `status` and the next plan. */
export interface RunSummary {
  /** Upstream calls the run made (its cycle's cost). */
  calls: number;
  /** Windows it stored. */
  windows: number;
  at: Date;
  /** The adaptive window size to plan the next run with (undefined: unchanged). */
  windowSize?: number | undefined;
  /** The filter splits to start the next run from (null: none any more; undefined: unchanged). */
  split?: SplitMemory | null | undefined;
}

/**
 * Records a run's summary on its cursor (incremental runs only; a scope without a cursor is left
 * alone). A run that did what the one before did (same calls and windows, same plan for the next)
 * writes nothing: with streams polled every minute most runs are alike, and the cursor's stamps
 * (last_success_at, last_polled_at) already say when it ran. So `last_run.at` is when a run last
 * did differently.
 */
export async function recordRunSummary(
  db: Queryable,
  stream: string,
  scope: Scope,
  summary: RunSummary,
): Promise<void> {
  const lastRun = { calls: summary.calls, windows: summary.windows, at: summary.at.toISOString() };
  const position: Record<string, unknown> =
    summary.windowSize === undefined ? {} : { windowSize: summary.windowSize };
  if (summary.split) position.split = summary.split;
  await db.query(
    `UPDATE sync.cursors SET last_run = $3::jsonb, position = ${NEXT_POSITION}
      WHERE stream = $1 AND scope = $2
        AND (last_run IS NULL OR last_run - 'at' IS DISTINCT FROM $3::jsonb - 'at'
             OR position IS DISTINCT FROM ${NEXT_POSITION})`,
    [stream, scope.id, JSON.stringify(lastRun), JSON.stringify(position), summary.split === null],
  );
}

/** The cursor's position after a run summary: the split dropped ($5) or replaced, the size ($4) set. */
const NEXT_POSITION = `(CASE WHEN $5 THEN position - 'split' ELSE position END) || $4::jsonb`;

/** A split memory as stored (a hand-edited or foreign position is ignored, not trusted). */
function isSplitMemory(value: unknown): value is SplitMemory {
  const v = value as Partial<SplitMemory> | null | undefined;
  return Boolean(v && Array.isArray(v.nodes) && typeof v.since === 'string');
}
