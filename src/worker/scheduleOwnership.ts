import { Queue } from 'bullmq';
import type { RedisConnection } from '../redis/connection.ts';
import { QUEUE_NAMES } from './queues.ts';
import { withRedisLock } from './redisLock.ts';
import type { DesiredSchedule } from './schedules.ts';

/**
 * Which job schedulers a deployment owns. Each deployment keeps its queues under its own prefix
 * (deployment.ts), so every scheduler its reconciliation sees there is its own and nothing it
 * removes can be another deployment's. Before that, every deployment sharing a Redis prefix kept
 * its schedulers in one shared sync queue, where reconciling one removed the others' (issue 24
 * item 4b). There this deployment owns only what it configures: on start it retires those
 * schedulers (its own, now kept under its prefix) and leaves every other alone, so a deployment
 * not yet upgraded keeps its schedules and is no longer sent this deployment's jobs.
 */

/** Removes from the shared sync queue under `sharedPrefix` the schedulers this deployment wants; answers their ids. */
export async function retireSharedSchedulers(
  redis: RedisConnection,
  sharedPrefix: string,
  desired: readonly DesiredSchedule[],
): Promise<string[]> {
  if (desired.length === 0) return [];
  const shared = new Queue(QUEUE_NAMES.sync, { connection: redis, prefix: sharedPrefix });
  try {
    // Checked every 15 s (the schedule keeper's round): one read, and the lock only when there is
    // something to retire.
    if (ownedShared(await presentIn(shared), desired).length === 0) return [];
    // The shared queue's registration lock: a worker of the old version reconciling there meanwhile
    // would otherwise re-create what this removes, or see half of it gone.
    const lockKey = `${sharedPrefix}:${QUEUE_NAMES.sync}:schedules-lock`;
    return await withRedisLock(redis, lockKey, () => retire(shared, desired), { waitMs: 10_000 });
  } finally {
    await shared.close();
  }
}

async function presentIn(queue: Queue): Promise<Set<string>> {
  return new Set((await queue.getJobSchedulers(0, -1)).map((s) => s.key));
}

async function retire(shared: Queue, desired: readonly DesiredSchedule[]): Promise<string[]> {
  const retired = ownedShared(await presentIn(shared), desired);
  for (const id of retired) await shared.removeJobScheduler(id);
  return retired;
}

/** Pure: the shared schedulers this deployment owns: those of the streams and scopes it configures. */
export function ownedShared(present: ReadonlySet<string>, desired: readonly DesiredSchedule[]): string[] {
  return desired.filter((d) => present.has(d.id)).map((d) => d.id);
}
