import type { Queue } from 'bullmq';
import type { Logger } from 'pino';
import type { RedisConnection } from '../redis/connection.ts';
import { type DesiredSchedule, registerSchedules } from './schedules.ts';

/** How often a worker checks that every job scheduler it wants is still in Redis. */
export const SCHEDULE_CHECK_INTERVAL_MS = 15_000;

/** The ids of wanted schedulers that Redis does not have (one cheap read, no lock). */
export async function missingSchedules(queue: Queue, desired: readonly DesiredSchedule[]): Promise<string[]> {
  const present = new Set((await queue.getJobSchedulers(0, -1)).map((s) => s.key));
  return desired.filter((d) => !present.has(d.id)).map((d) => d.id);
}

/** A running keeper: check now (e.g. on Redis reconnect), or stop it. */
export interface ScheduleKeeper {
  checkNow: () => Promise<void>;
  stop: () => Promise<void>;
}

/**
 * Keeps the job schedulers in Redis: every `intervalMs`, and whenever `checkNow` is called, reads
 * which wanted schedulers are missing (a Redis restart without its data, keys deleted by hand) and
 * registers them again under the registration lock, so several workers re-create each one once.
 * Checks never overlap; a check while Redis is away is skipped (the reconnect triggers one).
 */
export function startScheduleKeeper(options: {
  queue: Queue;
  desired: readonly DesiredSchedule[];
  redis: RedisConnection;
  logger: Logger;
  intervalMs?: number;
  /** Schedulers of other queues to put back too (the pruner's); checked with the sync ones. */
  alsoKeep?: () => Promise<boolean>;
}): ScheduleKeeper {
  const { queue, desired, redis, logger } = options;
  let running: Promise<void> | undefined;
  const check = async () => {
    if (redis.status !== 'ready') return;
    try {
      if (await options.alsoKeep?.()) logger.warn('re-created the prune scheduler missing from Redis');
      if (desired.length === 0) return;
      const missing = await missingSchedules(queue, desired);
      if (missing.length === 0) return;
      const result = await registerSchedules(queue, desired, { redis, lockWaitMs: 10_000 });
      if (result.created.length > 0) {
        logger.warn(
          { created: result.created.length, missing: missing.length },
          `re-created ${result.created.length} job scheduler(s) missing from Redis`,
        );
      }
    } catch (error) {
      logger.warn(
        { err: (error as Error).message },
        'could not check the job schedulers; trying again later',
      );
    }
  };
  const checkNow = () => {
    running ??= check().finally(() => {
      running = undefined;
    });
    return running;
  };
  const timer = setInterval(() => void checkNow(), options.intervalMs ?? SCHEDULE_CHECK_INTERVAL_MS);
  timer.unref();
  return {
    checkNow,
    stop: async () => {
      clearInterval(timer);
      await running;
    },
  };
}
