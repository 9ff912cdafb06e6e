import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { StreamName } from '../config/types.ts';
import type { Queryable } from '../db/queryable.ts';
import { markAnalyticsStale, type RefreshOptions, refreshStaleAnalytics, runChangedRows } from './refresh.ts';

/** What the worker tells the refresher after each run. */
export interface RunChanges {
  stream: StreamName;
  inserted: number;
  updated: number;
}

/**
 * The worker's analytics refresher: after each run it marks the views over what the run wrote
 * stale (on the run's own pool: a quick upsert), then refreshes what is due in the background on
 * a pool of its own, one refresh pass at a time per process. A refresh of a year of shipments
 * takes many seconds; run inside the job, it would hold up that stream and a sync connection.
 */
export class AnalyticsRefresher {
  private running: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(
    private readonly pool: Pool,
    private readonly options: RefreshOptions & { logger: Pick<Logger, 'info' | 'warn'> },
  ) {}

  /** Marks what `result` changed (awaited, on `db`) and starts a refresh pass (not awaited). */
  async afterRun(db: Queryable, result: RunChanges): Promise<void> {
    try {
      if (runChangedRows(result)) await markAnalyticsStale(db, result.stream);
    } catch (error) {
      this.options.logger.warn({ error: messageOf(error) }, 'could not mark analytics views stale');
    }
    this.kick();
  }

  /** Starts a refresh pass, or asks the running one for another pass when it ends. */
  kick(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.passes().finally(() => {
      this.running = undefined;
    });
  }

  private async passes(): Promise<void> {
    do {
      this.again = false;
      try {
        await refreshStaleAnalytics(this.pool, this.options);
      } catch (error) {
        this.options.logger.warn({ error: messageOf(error) }, 'analytics refresh pass failed');
      }
    } while (this.again && !this.closed);
  }

  /** Starts no more passes and waits for the running one (its refresh commits or rolls back). */
  async close(): Promise<void> {
    this.closed = true;
    await this.running;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
