import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { AnalyticsRefresher } from '../analytics/refresher.ts';
import { backfillEngineWindow } from '../backfill/plan.ts';
import type { Config } from '../config/types.ts';
import { createEventSink } from '../events/sink.ts';
import { recordEventsWritten, recordRunResult } from '../http/metricsHooks.ts';
import type { StreamClient } from '../streams/client.ts';
import { streamByName } from '../streams/index.ts';
import { runStream } from '../sync/runStream.ts';
import type { StreamRunResult, Window } from '../sync/types.ts';
import type { SyncOutcome, SyncRunner } from './seams.ts';
import { STREAM_SCOPE_KIND } from './streamScopes.ts';

/**
 * Raised when an engine run failed; the job retries it (the cursor was kept). `retryAfterMs` is
 * upstream's Retry-After when that failed the run: the worker then pauses the queue that long
 * (see retryAfter.ts) instead of spending an attempt.
 */
export class SyncRunFailedError extends Error {
  override name = 'SyncRunFailedError';
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: { retryAfterMs?: number | undefined } = {}) {
    super(message);
    this.retryAfterMs = options.retryAfterMs;
  }
}

/** What the engine runner needs: a pool, an upstream client, the config and a logger. */
export interface EngineRunnerDeps {
  pool: Pool;
  client: StreamClient;
  config: Config;
  logger: Logger;
  /** The current time, read before each run (the simulator's clock with FULFILLMENT_CLOCK=simulator; tests). */
  now?: () => Date | Promise<Date>;
  /** Keeps the analytics views fresh after the runs (the worker's; none: runs leave them alone). */
  analytics?: Pick<AnalyticsRefresher, 'afterRun'>;
  /**
   * 'skip' (default): a run whose stream and scope another run holds answers `skipped` at once
   * (the worker retries the job shortly); 'wait': it waits for the other run to finish.
   */
  lockMode?: 'wait' | 'skip';
  /** Called with every engine result and how long the run took (metrics, progress, the job log line). */
  onResult?: (result: StreamRunResult, durationMs: number) => void;
}

/** Adapts `runStream` of src/sync to the jobs' `SyncRunner` seam. */
export function createEngineRunner(deps: EngineRunnerDeps): SyncRunner {
  const { config } = deps;
  return async (request): Promise<SyncOutcome> => {
    const stream = streamByName(request.stream);
    if (!stream) throw new SyncRunFailedError(`No stream named ${request.stream} is registered.`);
    const sink = createEventSink({
      timezone: config.timezone,
      ambiguousTime: config.ambiguousTime,
      thresholds: config.events,
      onWritten: recordEventsWritten,
    });
    const now = (await deps.now?.()) ?? new Date();
    const started = performance.now();
    const windows: Window[] | undefined = request.windows?.map((w) =>
      backfillEngineWindow(request.stream, w, config.timezone),
    );
    const result = await runStream({
      pool: deps.pool,
      client: deps.client,
      config,
      logger: deps.logger,
      stream,
      scope: { kind: STREAM_SCOPE_KIND[request.stream], id: request.scope },
      mode: request.mode,
      ...(windows ? { windows } : {}),
      eventSink: sink,
      emitEvents: request.emitEvents ?? false,
      now,
      lockMode: deps.lockMode ?? 'skip',
    });
    const durationMs = Math.round(performance.now() - started);
    recordRunResult(result, { durationMs, mode: request.mode });
    deps.onResult?.(result, durationMs);
    // After the run's own commits, so the analytics views see what it wrote; refreshed in the background.
    await deps.analytics?.afterRun(deps.pool, result);
    if (result.status === 'failed') {
      throw new SyncRunFailedError(
        `${request.stream} for ${request.scope} failed: ${result.error ?? 'unknown error'}`,
        { retryAfterMs: result.retryAfterMs },
      );
    }
    return { recordsFetched: result.fetched, skipped: result.status === 'skipped' };
  };
}
