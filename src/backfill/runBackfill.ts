import type { Pool } from 'pg';
import type { StreamName } from '../config/types.ts';
import type { SyncRunner, TimeWindow } from '../worker/seams.ts';
import { finishedWindows, markWindowFinished, windowKey } from './windowsStore.ts';

/** Progress after each window, for the progress bar. */
export interface BackfillProgress {
  windowsTotal: number;
  windowsDone: number;
  /** Windows a previous run had finished (not fetched again). */
  windowsResumed: number;
  recordsFetched: number;
}

/** What a finished backfill reports. */
export interface BackfillSummary extends BackfillProgress {
  backfillId: string;
  stream: StreamName;
  scopes: readonly string[];
  elapsedMs: number;
}

/** A backfill to run in-process. */
export interface BackfillRun {
  pool: Pool;
  runSync: SyncRunner;
  backfillId: string;
  stream: StreamName;
  scopes: readonly string[];
  windows: readonly TimeWindow[];
  emitEvents: boolean;
  onProgress?: (progress: BackfillProgress) => void;
}

/**
 * Runs a backfill window by window through the engine (backfill mode: the incremental cursor is
 * never moved) and records each finished window, so a second run skips what the first finished.
 */
export async function runBackfill(run: BackfillRun): Promise<BackfillSummary> {
  const started = Date.now();
  const progress: BackfillProgress = {
    windowsTotal: run.windows.length * run.scopes.length,
    windowsDone: 0,
    windowsResumed: 0,
    recordsFetched: 0,
  };
  for (const scope of run.scopes) {
    const done = await finishedWindows(run.pool, run.backfillId, run.stream, scope);
    for (const window of run.windows) {
      if (done.has(windowKey(window))) {
        progress.windowsDone += 1;
        progress.windowsResumed += 1;
        run.onProgress?.({ ...progress });
        continue;
      }
      const outcome = await run.runSync({
        stream: run.stream,
        scope,
        mode: 'backfill',
        windows: [window],
        emitEvents: run.emitEvents,
      });
      if (outcome.skipped) {
        throw new Error(
          `${run.stream} for ${scope} is locked by another run; run the backfill again to resume.`,
        );
      }
      await markWindowFinished(
        run.pool,
        { backfillId: run.backfillId, stream: run.stream, scope, window },
        outcome.recordsFetched,
      );
      progress.windowsDone += 1;
      progress.recordsFetched += outcome.recordsFetched;
      run.onProgress?.({ ...progress });
    }
  }
  return {
    ...progress,
    backfillId: run.backfillId,
    stream: run.stream,
    scopes: run.scopes,
    elapsedMs: Date.now() - started,
  };
}
