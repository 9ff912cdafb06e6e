import type { Logger } from 'pino';
import type { StreamRunResult } from '../sync/types.ts';

/**
 * The one line a worker logs per finished sync, backfill window or order-detail run: info when it
 * stored what it read, warn when it failed (the job's own failure line follows from BullMQ).
 */
export function logFinishedRun(logger: Logger, result: StreamRunResult, durationMs: number): void {
  const rows = result.inserted + result.updated;
  const fields = {
    stream: result.stream,
    scope: result.scope.id,
    status: result.status,
    windows: result.windows,
    fetched: result.fetched,
    rows,
    inserted: result.inserted,
    updated: result.updated,
    unchanged: result.unchanged,
    rejected: result.rejected,
    events: result.events,
    apiCalls: result.apiCalls,
    durationMs,
  };
  const message = `${result.stream} ${result.scope.id} ${result.status}: ${rows} rows changed, ${result.events} events, ${durationMs} ms`;
  if (result.status === 'failed') logger.warn({ ...fields, err: result.error }, message);
  else logger.info(fields, message);
}
