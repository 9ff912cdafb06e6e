import { type WorkerOptions as BullWorkerOptions, DelayedError, Job, Queue, Worker } from 'bullmq';
import type { Logger } from 'pino';
import {
  BACKFILL_WINDOW_JOB,
  type BackfillWindowPayload,
  createBackfillWindowProcessor,
} from '../../jobs/backfillWindow.ts';
import { createSyncStreamProcessor, SYNC_STREAM_JOB, syncStreamJobOptions } from '../../jobs/syncStream.ts';
import { retryAfterMsOf } from '../api/errors.ts';
import type { Config, StreamName } from '../config/types.ts';
import { stretchNotice } from '../polling/planNotice.ts';
import { pollPlan } from '../polling/pollPlan.ts';
import type { RedisConnection } from '../redis/connection.ts';
import { ensurePruneSchedule, PRUNE_JOB } from './pruneSchedule.ts';
import { JOB_RETENTION, QUEUE_NAMES, type QueueKind } from './queues.ts';
import { checkWorkerRedis } from './redisChecks.ts';
import { createRedisSupervisor, type RedisSupervisor } from './redisSupervisor.ts';
import { missingSchedules, type ScheduleKeeper, startScheduleKeeper } from './scheduleKeeper.ts';
import { retireSharedSchedulers } from './scheduleOwnership.ts';
import { desiredSchedules, registerSchedules, type ScheduleRegistration } from './schedules.ts';
import type { SyncOutcome, SyncRunner } from './seams.ts';
import { scopesOf } from './streamScopes.ts';

/** What a worker process needs; the engine arrives as functions so this file never builds clients. */
export interface WorkerOptions {
  config: Config;
  logger: Logger;
  /** BullMQ key prefix of this deployment's queues (deployment.ts); tests pass a unique one. */
  prefix: string;
  /**
   * The prefix deployments shared before each had its own (the configured one): this deployment's
   * schedulers there are retired on start (scheduleOwnership.ts). Absent: nothing to retire.
   */
  sharedPrefix?: string;
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
  /** How often the job schedulers are checked and re-created when missing (default 15 s). */
  scheduleCheckIntervalMs?: number;
  /**
   * One prune of the bookkeeping tables (src/retention/prune.ts), run by the maintenance queue's
   * scheduler every `config.retention.pruneEveryMinutes`; `shouldStop` turns true when the worker
   * stops, so a long prune ends between two batches. Without it the worker prunes nothing.
   */
  prune?: (shouldStop: () => boolean) => Promise<unknown>;
}

/** A running worker: its queues (for the dashboard and metrics) and how to stop it. */
export interface RunningWorker {
  queues: Record<QueueKind, Queue>;
  /** The producer/probe connection (readiness, status). */
  redis: RedisConnection;
  /** Makes and watches this worker's Redis connections (webhook delivery takes its own from it). */
  redisConnections: RedisSupervisor;
  /** The schedules registered at start. */
  schedules: ScheduleRegistration | undefined;
  /** Ids of wanted job schedulers Redis does not have now (read from Redis each time). */
  missingSchedules: () => Promise<string[]>;
  /** Stops taking jobs, lets running ones finish for up to `timeoutMs`, then releases them. */
  close: (timeoutMs?: number) => Promise<{ released: number }>;
}

type ActiveJob = { job: Job; token: string | undefined; queue: Queue };

/** Starts the BullMQ workers (sync, backfill) and registers the schedules. */
export async function startWorker(options: WorkerOptions): Promise<RunningWorker> {
  const { config, logger, prefix } = options;
  const redisConnections = createRedisSupervisor(config.redis, logger);
  const redis = redisConnections.workerConnection();
  await checkWorkerRedis(redis, logger);

  const queues = {
    sync: new Queue(QUEUE_NAMES.sync, { connection: redis, prefix, defaultJobOptions: { ...JOB_RETENTION } }),
    backfill: new Queue(QUEUE_NAMES.backfill, {
      connection: redis,
      prefix,
      defaultJobOptions: { ...JOB_RETENTION },
    }),
    maintenance: new Queue(QUEUE_NAMES.maintenance, {
      connection: redis,
      prefix,
      defaultJobOptions: { ...JOB_RETENTION },
    }),
  } satisfies Record<QueueKind, Queue>;
  for (const queue of Object.values(queues)) {
    queue.on('error', (error) => redisConnections.reportError(error, `queue ${queue.name}`));
  }

  const active = new Map<string, ActiveJob>();
  const common = (): BullWorkerOptions => {
    return {
      connection: redisConnections.workerConnection(),
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
    const { stream, scope } = data as { stream: StreamName; scope: string };
    // Never a stream or scope this worker is not configured for (a scope since removed, a job put
    // in this deployment's queue by hand): its cursor and rows would land in this database.
    if (!scopesOf(config, stream).includes(scope)) {
      logger.warn({ stream, scope }, 'sync job for a stream or scope not configured here: not run');
      return { recordsFetched: 0, notConfigured: true };
    }
    const outcome = await runSyncJob(data);
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
    worker.on('error', (error) => redisConnections.reportError(error, `worker ${queue.name}`));
    workers.push(worker);
  };
  handle(queues.sync, SYNC_STREAM_JOB, syncProcessor);
  handle(queues.backfill, BACKFILL_WINDOW_JOB, backfillProcessor);

  let stopping = false;
  const pruneEveryMs = Math.round(config.retention.pruneEveryMinutes * 60_000);
  const prune = options.registerSchedules === false ? undefined : options.prune;
  if (prune) {
    // One prune at a time per worker; across workers the prune lock decides.
    const maintenance = new Worker(
      queues.maintenance.name,
      async (job) => {
        if (job.name !== PRUNE_JOB)
          throw new Error(`unknown job ${job.name} on queue ${queues.maintenance.name}`);
        return prune(() => stopping);
      },
      { ...common(), concurrency: 1 },
    );
    maintenance.on('failed', (job, error) =>
      logger.error({ queue: queues.maintenance.name, job: job?.id, err: error.message }, 'prune failed'),
    );
    maintenance.on('error', (error) => redisConnections.reportError(error, 'worker maintenance'));
    workers.push(maintenance);
  }
  const keepPruneSchedule = () => ensurePruneSchedule(queues.maintenance, prune ? pruneEveryMs : 0);

  let schedules: ScheduleRegistration | undefined;
  let keeper: ScheduleKeeper | undefined;
  const plan = pollPlan(config);
  const desired = options.registerSchedules === false ? [] : desiredSchedules(config, plan);
  if (options.registerSchedules !== false) {
    const notice = stretchNotice(plan);
    if (notice) logger.warn({ stretch: plan.stretch, callsPerSecond: plan.callsPerSecond }, notice);
    schedules = await registerSchedules(queues.sync, desired, { redis });
    if (options.sharedPrefix !== undefined && options.sharedPrefix !== prefix) {
      const retired = await retireSharedSchedulers(redis, options.sharedPrefix, desired);
      if (retired.length > 0)
        logger.info(
          { retired: retired.length },
          "retired this deployment's schedulers from the shared queue",
        );
    }
    await keepPruneSchedule();
    logger.info(
      {
        created: schedules.created.length,
        updated: schedules.updated.length,
        unchanged: schedules.unchanged.length,
        removed: schedules.removed.length,
      },
      'schedules registered',
    );
    // A Redis restart without its data, or keys deleted under the prefix, loses the schedulers
    // while this worker keeps running: put them back, periodically and as soon as Redis returns.
    keeper = startScheduleKeeper({
      queue: queues.sync,
      desired,
      redis,
      logger,
      intervalMs: options.scheduleCheckIntervalMs,
      alsoKeep: keepPruneSchedule,
    });
    const { checkNow } = keeper;
    redisConnections.onReconnect(() => void checkNow());
  }

  const close = async (timeoutMs = config.worker.shutdownTimeoutMs) => {
    stopping = true;
    await keeper?.stop();
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
    redisConnections.disconnectAll();
    return { released };
  };

  return {
    queues,
    redis,
    redisConnections,
    schedules,
    missingSchedules: async () => {
      // Never wait on the offline queue: while Redis is away the schedules cannot be read.
      if (redis.status !== 'ready') throw new Error(`Redis connection is ${redis.status}`);
      return missingSchedules(queues.sync, desired);
    },
    close,
  };
}
