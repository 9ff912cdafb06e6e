import { Queue } from 'bullmq';
import {
  BACKFILL_WINDOW_JOB,
  backfillWindowJobId,
  backfillWindowRetry,
} from '../../../jobs/backfillWindow.ts';
import { refreshAllAnalytics } from '../../analytics/refresh.ts';
import {
  BACKFILL_STREAMS,
  BackfillInputError,
  isBackfillStream,
  planBackfillWindows,
} from '../../backfill/plan.ts';
import { createProgressDisplay } from '../../backfill/progress.ts';
import { type BackfillSummary, runBackfill } from '../../backfill/runBackfill.ts';
import { backfillIdOf, finishedWindows, windowKey } from '../../backfill/windowsStore.ts';
import { createDatabase } from '../../db/client.ts';
import { cliCommand } from '../../runtime/invocation.ts';
import { openUpstream } from '../../runtime/upstream.ts';
import { createWorkerRedis } from '../../worker/connections.ts';
import { createEngineRunner } from '../../worker/engineRunner.ts';
import { JOB_RETENTION, QUEUE_NAMES } from '../../worker/queues.ts';
import { STREAM_SCOPE_KIND } from '../../worker/streamScopes.ts';
import type { CliContext } from '../context.ts';
import { deploymentQueuePrefix } from '../queuePrefix.ts';
import { noScopesLine } from '../scopes.ts';
import { UsageError } from '../usageError.ts';
import { describeRefresh } from './sync.ts';

/** Options of `backfill`. */
export interface BackfillCommandOptions {
  stream: string;
  from: string;
  to: string;
  scope?: string;
  emitEvents?: boolean;
  queue?: boolean;
  windowDays?: string;
  queuePrefix?: string;
}

/** The summary line printed at the end. */
export function describeBackfill(summary: BackfillSummary): string {
  const fresh = summary.windowsDone - summary.windowsResumed;
  return `backfill ${summary.backfillId}: ${summary.windowsDone}/${summary.windowsTotal} windows done (${fresh} fetched now, ${summary.windowsResumed} already done), ${summary.recordsFetched} records, ${Math.round(summary.elapsedMs / 1000)}s, scopes ${summary.scopes.join(', ')}`;
}

/** The command that resumes this backfill (the same range and options; finished windows are skipped). */
export function resumeCommand(options: BackfillCommandOptions): string {
  const parts = ['backfill', '--stream', options.stream, '--from', options.from];
  parts.push('--to', options.to);
  if (options.scope !== undefined) parts.push('--scope', options.scope);
  if (options.emitEvents) parts.push('--emit-events');
  if (options.windowDays !== undefined) parts.push('--window-days', options.windowDays);
  return cliCommand(parts.map(shellWord).join(' '));
}

function shellWord(word: string): string {
  return /^[\w.:@,/=+-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
}

/** Runs `backfill`; bad input throws UsageError (exit 2). */
export async function backfillAction(context: CliContext, options: BackfillCommandOptions): Promise<number> {
  if (!isBackfillStream(options.stream)) {
    throw new UsageError(`--stream must be one of ${BACKFILL_STREAMS.join(', ')} (got "${options.stream}").`);
  }
  const stream = options.stream;
  const windowDays = options.windowDays === undefined ? 1 : Number(options.windowDays);
  if (!Number.isInteger(windowDays) || windowDays < 1)
    throw new UsageError('--window-days must be a whole number >= 1.');
  const config = context.config();
  let windows: ReturnType<typeof planBackfillWindows>;
  try {
    windows = planBackfillWindows({
      fromDay: options.from,
      toDay: options.to,
      windowDays,
      timezone: config.timezone,
    });
  } catch (error) {
    if (error instanceof BackfillInputError) throw new UsageError(error.message);
    throw error;
  }
  const logger = context.logger().child({ command: 'backfill' });
  const upstream = await openUpstream(config, logger);
  const database = createDatabase(config.databaseUrl, {
    max: 2,
    applicationName: 'fulfillment-sync backfill',
    settings: config.database,
  });
  try {
    const known = STREAM_SCOPE_KIND[stream] === 'account' ? upstream.accountNumbers : upstream.supplierIds;
    if (options.scope !== undefined && !known.includes(options.scope)) {
      throw new UsageError(
        `unknown scope "${options.scope}" for ${stream}; configured: ${known.join(', ') || '(none)'}`,
      );
    }
    const scopes = options.scope === undefined ? [...known] : [options.scope];
    if (scopes.length === 0) throw new UsageError(noScopesLine([STREAM_SCOPE_KIND[stream]]));
    const backfillId = backfillIdOf(stream, options.from, options.to);
    const emitEvents = options.emitEvents ?? false;
    if (options.queue) {
      const prefix = await deploymentQueuePrefix(options.queuePrefix, config, database.pool);
      const redis = createWorkerRedis(config.redis);
      const queue = new Queue(QUEUE_NAMES.backfill, { connection: redis, prefix });
      let added = 0;
      try {
        for (const scope of scopes) {
          const done = await finishedWindows(database.pool, backfillId, stream, scope);
          for (const w of windows.filter((x) => !done.has(windowKey(x)))) {
            const payload = {
              stream,
              scope,
              from: w.from.toISOString(),
              to: w.to.toISOString(),
              emitEvents,
              backfillId,
            };
            await queue.add(BACKFILL_WINDOW_JOB, payload, {
              ...backfillWindowRetry,
              ...JOB_RETENTION,
              jobId: backfillWindowJobId(payload),
            });
            added += 1;
          }
        }
      } finally {
        await queue.close();
        redis.disconnect();
      }
      context.print(
        `backfill ${backfillId}: enqueued ${added} of ${windows.length * scopes.length} windows (the rest were done).`,
      );
      return 0;
    }
    const runSync = createEngineRunner({
      pool: database.pool,
      client: upstream.client,
      config,
      logger,
      now: upstream.now,
      lockMode: 'wait',
    });
    const total = windows.length * scopes.length;
    const display = createProgressDisplay(total);
    let done = 0;
    const resume = resumeCommand(options);
    // Ctrl-C: finished windows are stored, the running one rolls back with its connection; say how to go on.
    const onInterrupt = () => {
      display.stop();
      context.printError(
        `backfill interrupted after ${done}/${total} windows; finished windows are kept. Resume with:`,
      );
      context.printError(`  ${resume}`);
      process.exit(130);
    };
    process.once('SIGINT', onInterrupt);
    try {
      const summary = await runBackfill({
        pool: database.pool,
        runSync,
        backfillId,
        stream,
        scopes,
        windows,
        emitEvents,
        onProgress: (progress) => {
          done = progress.windowsDone;
          display.update(progress);
        },
      });
      display.stop();
      context.print(describeBackfill(summary));
      if (summary.recordsFetched > 0) {
        // Backfilled history belongs in the analytics views at once, not at the worker's next run.
        context.print(describeRefresh(await refreshAllAnalytics(database.pool, { logger })));
      }
      return 0;
    } catch (error) {
      display.stop();
      context.printError(`backfill stopped: ${(error as Error).message}; resume with: ${resume}`);
      return 1;
    } finally {
      process.removeListener('SIGINT', onInterrupt);
    }
  } finally {
    await database.close();
    await upstream.close();
  }
}
