import { Queue } from 'bullmq';
import type { RedisTarget } from '../../redis/connection.ts';
import { createClientRedis } from '../../worker/connections.ts';
import { QUEUE_NAMES } from '../../worker/queues.ts';

/** Counts queued sync jobs per `stream:scope`; undefined when Redis cannot be reached quickly. */
export async function readQueueDepths(
  target: RedisTarget,
  prefix: string,
): Promise<Map<string, number> | undefined> {
  const redis = createClientRedis(target);
  redis.on('error', () => {}); // unreachable Redis is reported as 'unavailable', not thrown
  try {
    await Promise.race([
      redis.connect(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 1500)),
    ]);
    const queue = new Queue(QUEUE_NAMES.sync, { connection: redis, prefix });
    try {
      const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'prioritized'], 0, 5000);
      const depths = new Map<string, number>();
      for (const job of jobs) {
        const key = `${job?.data?.stream}:${job?.data?.scope}`;
        depths.set(key, (depths.get(key) ?? 0) + 1);
      }
      return depths;
    } finally {
      await queue.close();
    }
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}
