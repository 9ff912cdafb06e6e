import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { SYNC_STREAM_JOB, type SyncStreamPayload } from '../../../jobs/syncStream.ts';
import { STREAM_NAMES } from '../../../src/config/types.ts';
import { QUEUE_NAMES } from '../../../src/worker/queues.ts';
import { STREAM_SCOPE_KIND } from '../../../src/worker/streamScopes.ts';
import type { ChaosContext } from '../scenario.ts';
import type { ChaosWorld } from './world.ts';

/** The sync queue of a world, to enqueue runs on demand and read what is left to do. */
export interface SyncJobs {
  /** Every stream and scope the world's workers run on a schedule (orders run on demand). */
  pairs: SyncStreamPayload[];
  /** Enqueues every pair `times` times at once, as distinct jobs (no deduplication). */
  enqueueAll(times: number): Promise<void>;
  /**
   * Jobs waiting, prioritized, active, or delayed other than a scheduler's next run (a job that
   * found its stream and scope busy waits delayed for a second or two and counts).
   */
  pending(): Promise<number>;
  /** Jobs that failed after their attempts. */
  failed(): Promise<number>;
}

/** Opens the world's sync queue on the chaos Redis (closed when the scenario ends). */
export function openSyncJobs(ctx: ChaosContext, world: ChaosWorld): SyncJobs {
  const redis = new Redis(ctx.services.redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(QUEUE_NAMES.sync, { connection: redis, prefix: world.queuePrefix });
  ctx.defer(async () => {
    await queue.close();
    redis.disconnect();
  });
  const pairs = STREAM_NAMES.filter((s) => s !== 'orders').flatMap((stream) =>
    (STREAM_SCOPE_KIND[stream] === 'account'
      ? world.sim.world.accounts.map((a) => a.number)
      : world.sim.world.suppliers.map((s) => s.id)
    ).map((scope) => ({ stream, scope })),
  );
  return {
    pairs,
    enqueueAll: async (times) => {
      const jobs = Array.from({ length: times }, () => pairs).flat();
      await queue.addBulk(jobs.map((data) => ({ name: SYNC_STREAM_JOB, data })));
    },
    pending: async () => {
      const c = await queue.getJobCounts('waiting', 'prioritized', 'active');
      const delayed = (await queue.getDelayed()).filter((job) => job.repeatJobKey === undefined);
      return (c.waiting ?? 0) + (c.prioritized ?? 0) + (c.active ?? 0) + delayed.length;
    },
    failed: async () => (await queue.getJobCounts('failed')).failed ?? 0,
  };
}
