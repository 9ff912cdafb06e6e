import { type WorkerOptions as BullWorkerOptions, DelayedError, Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import {
  BACKFILL_WINDOW_JOB,
  type BackfillWindowPayload,
  createBackfillWindowProcessor,
} from '../../jobs/backfillWindow.ts';
import { createSyncStreamProcessor, SYNC_STREAM_JOB, syncStreamJobOptions } from '../../jobs/syncStream.ts';
import { retryAfterMsOf } from '../api/errors.ts';
import type { Config } from '../config/types.ts';
import { createWorkerRedis } from './connections.ts';
import { JOB_RETENTION, QUEUE_NAMES, type QueueKind } from './queues.ts';
import { checkWorkerRedis } from './redisChecks.ts';
import { desiredSchedules, registerSchedules, type ScheduleRegistration } from './schedules.ts';
import type { SyncOutcome, SyncRunner } from './seams.ts';

/** What a worker process needs; the engine arrives as functions so this file never builds clients. */
export interface WorkerOptions {
  config: Config;
  logger: Logger;
  /** BullMQ key prefix; tests pass a unique one. */
  prefix: string;
  runSync: SyncRunner;
  /** Records a finished backfill window (sync.backfill_windows), so a resumed backfill skips it. */
  onBackfillWindowDone?: (payload: BackfillWindowPayload, outcome: SyncOutcome) => Promise<void>;
  /**
   * Default true: after a shipments or returns sync, a deduplicated `orders` sync of the account
   * fetches the order details those changes requested (sync.detail_requests).
   */
  followOrders?: boolean;
  /** Default true; tests of processing alone may skip it. */
  registerSchedules?: boolean;
  /** Lock tuning: how soon a crashed worker's job counts as stalled and moves to another worker. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
}

/** A running worker: its queues (for the dashboard and metrics) and how to stop it. */
export interface RunningWorker {
  queues: Record<QueueKind, Queue>;
  /** The producer/probe connection (readiness, status). */
  redis: Redis;
  schedules: ScheduleRegistration | undefined;
  schedulesRegistered: () => boolean;
  /** Stops taking jobs, lets running ones finish for up to `timeoutMs`, then releases them. */
  close: (timeoutMs?: number) => Promise<{ released: number }>;
}

type ActiveJob = { job: Job; token: string | undefined; queue: Queue };

/** Starts the BullMQ workers (sync, backfill) and registers the schedules. */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const { config, logger, prefix } = options;
  const redis = createWorkerRedis(config.redisUrl);
  await checkWorkerRedis(redis, logger);

  const queues = {
    sync: new Queue(QUEUE_NAMES.sync, { connection: redis, prefix, defaultJobOptions: { ...JOB_RETENTION } }),
    backfill: new Queue(QUEUE_NAMES.backfill, {
      connection: redis,
      prefix,
      defaultJobOptions: { ...JOB_RETENTION },
    }),
  } satisfies Record<QueueKind, Queue>;

  const active = new Map<string, ActiveJob>();
  const workerRedis: Redis[] = [];
  const common = (): BullWorkerOptions => {
    const connection = createWorkerRedis(config.redisUrl);
    workerRedis.push(connection);
    return {
      connection,
      prefix,
      ...JOB_RETENTION,
      lockDuration: options.lockDurationMs ?? 30_000,
      stalledInterval: options.stalledIntervalMs ?? 30_000,
      // One stall (a worker died) moves the job back to wait for another worker.
      maxStalledCount: 2,
    };
  };

  const runSyncJob = createSyncStreamProcessor(options.runSync);
  const syncProcessor = async (data: unknown) => {
    const outcome = await runSyncJob(data);
    const { stream, scope } = data as { stream: string; scope: string };
    if (
      options.followOrders !== false &&
      !outcome.skipped &&
      (stream === 'shipments' || stream === 'returns')
    ) {
      const payload = { stream: 'orders' as const, scope };
      await queues.sync.add(SYNC_STREAM_JOB, payload, syncStreamJobOptions(payload));
    }
    return outcome;
  };
  const backfillProcessor = createBackfillWindowProcessor(options.runSync, options.onBackfillWindowDone);

  const workers: Worker[] = [];
  const handle = (queue: Queue, expected: string, process: (data: unknown) => Promise<unknown>) => {
    const worker: Worker = new Worker(
      queue.name,
      async (job, token) => {
        if (job.name !== expected) throw new Error(`unknown job ${job.name} on queue ${queue.name}`);
        active.set(`${queue.name}/${job.id}`, { job, token, queue });
        try {
          const outcome = await process(job.data);
          if ((outcome as SyncOutcome | undefined)?.skipped) {
            // Another run holds this stream and scope (its lease, src/sync/lease.ts): scheduled and
            // on-demand jobs are distinct BullMQ jobs, so try again soon, with jitter so that
            // contending jobs do not wake together, without using an attempt.
            await job.moveToDelayed(Date.now() + 1_000 + Math.floor(Math.random() * 1_000), token);
            throw new DelayedError();
          }
          return outcome;
        } catch (error) {
          const waitMs = retryAfterMsOf(error);
          if (waitMs !== undefined) {
            // Upstream asked us to back off: pause this queue for every worker, retry without using an attempt.
            logger.warn({ queue: queue.name, waitMs }, 'upstream asked to retry later; pausing the queue');
            await queue.rateLimit(waitMs);
            throw Worker.RateLimitError();
          }
          throw error;
        } finally {
          active.delete(`${queue.name}/${job.id}`);
        }
      },
      {
        ...common(),
        concurrency: config.worker.concurrency,
        // BullMQ honours a manual rateLimit() (Retry-After) only on queues with a limiter, so the
        // queues get one far above any real rate; the upstream budget is the client's shared limiter.
        limiter: { max: 10_000, duration: 1000 },
      },
    );
    worker.on('failed', (job, error) =>
      logger.error({ queue: queue.name, job: job?.id, err: error.message }, 'job failed'),
    );
    worker.on('error', (error) => logger.error({ queue: queue.name, err: error.message }, 'worker error'));
    workers.push(worker);
  };
  handle(queues.sync, SYNC_STREAM_JOB, syncProcessor);
  handle(queues.backfill, BACKFILL_WINDOW_JOB, backfillProcessor);

  let schedules: ScheduleRegistration | undefined;
  if (options.registerSchedules !== false) {
    schedules = await registerSchedules(queues.sync, desiredSchedules(config), { redis });
    logger.info(
      {
        created: schedules.created.length,
        updated: schedules.updated.length,
        unchanged: schedules.unchanged.length,
        removed: schedules.removed.length,
      },
      'schedules registered',
    );
  }

  const close = async (timeoutMs = config.worker.shutdownTimeoutMs) => {
    // Stop taking new jobs at once (without waiting), then give running ones the time left to finish.
    await Promise.all(workers.map((w) => w.pause(true)));
    const deadline = Date.now() + timeoutMs;
    while (active.size > 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    // Close before releasing: a paused worker may still have a fetch in flight that would take the
    // released job straight back.
    await Promise.all(workers.map((w) => w.close(true)));
    let released = 0;
    // Hand unfinished jobs back to the queue now rather than waiting for their locks to expire; the
    // engine's transaction of this process is rolled back when its connection closes.
    for (const { job, token, queue } of active.values()) {
      try {
        await (await Job.fromId(queue, job.id!))?.moveToWait(token);
        released += 1;
      } catch (error) {
        logger.warn({ job: job.id, err: (error as Error).message }, 'could not release a running job');
      }
    }
    await Promise.all(Object.values(queues).map((q) => q.close()));
    for (const connection of [...workerRedis, redis]) connection.disconnect();
    return { released };
  };

  return {
    queues,
    redis,
    schedules,
    schedulesRegistered: () => options.registerSchedules === false || !!schedules,
    close,
  };
}
