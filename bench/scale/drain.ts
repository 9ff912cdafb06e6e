/** Waiting for the workers to finish what was asked of them: the sync queue drained, nothing left due. */
import type { Queue } from 'bullmq';
import type pg from 'pg';
import { SYNC_STREAM_JOB, syncStreamJobOptions } from '../../jobs/syncStream.ts';
import type { StreamName } from '../../src/config/types.ts';
import { accountsWithDueOrders } from './runLog.ts';

const POLL_MS = 250;

export interface DrainOptions {
  queue: Queue;
  pool: pg.Pool;
  /** The workers' clock (due order requests are judged by it). */
  now: () => Date;
  /** An extra condition (e.g. every first load stored) checked once the queue is idle. */
  done?: () => Promise<boolean>;
  timeoutMs: number;
  /** Called about every 30 s while waiting. */
  onProgress?: () => Promise<void>;
}

/**
 * Resolves once no sync job waits, runs or is delayed beyond the schedulers' own next runs, `done`
 * holds, and no account has order details due. An orders job asked for while the account's orders
 * job is running is deduplicated away (syncStreamJobOptions), leaving what the later shipments or
 * returns run named for the account's next such run; the benchmark has no next run within the
 * cycle, so it asks for an orders run of those accounts itself, as that run would, and counts them.
 */
export async function waitUntilDrained(options: DrainOptions): Promise<{ ordersRetriggered: number }> {
  const { queue } = options;
  const deadline = performance.now() + options.timeoutMs;
  let progressAt = performance.now() + 30_000;
  let ordersRetriggered = 0;
  for (;;) {
    if (performance.now() > deadline)
      throw new Error(`the workers did not drain within ${options.timeoutMs} ms`);
    if (options.onProgress && performance.now() > progressAt) {
      progressAt += 30_000;
      await options.onProgress();
    }
    const [counts, schedulers] = await Promise.all([
      queue.getJobCounts('waiting', 'active', 'prioritized', 'delayed', 'waiting-children'),
      queue.getJobSchedulersCount(),
    ]);
    const busy =
      (counts.waiting ?? 0) +
      (counts.active ?? 0) +
      (counts.prioritized ?? 0) +
      (counts['waiting-children'] ?? 0);
    // Each scheduler keeps its next run delayed; anything more is a retry or a job waiting out a lease.
    if (busy === 0 && (counts.delayed ?? 0) <= schedulers && ((await options.done?.()) ?? true)) {
      const due = await accountsWithDueOrders(options.pool, options.now());
      if (due.length === 0) return { ordersRetriggered };
      ordersRetriggered += due.length;
      await enqueueSyncRuns(
        queue,
        due.map((scope) => ({ stream: 'orders', scope })),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** One sync job per stream and scope, the job a scheduler (or `sync` on demand) adds. */
export async function enqueueSyncRuns(
  queue: Queue,
  runs: ReadonlyArray<{ stream: StreamName; scope: string }>,
): Promise<void> {
  await queue.addBulk(
    runs.map((data) => ({ name: SYNC_STREAM_JOB, data, opts: syncStreamJobOptions(data) })),
  );
}
