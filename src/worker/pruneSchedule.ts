import type { Queue } from 'bullmq';
import { JOB_RETENTION } from './queues.ts';

/** The job the prune scheduler adds to the maintenance queue. */
export const PRUNE_JOB = 'prune';
/** The prune scheduler's id: one for the deployment, whatever the number of workers. */
export const PRUNE_SCHEDULER_ID = 'retention:prune';

/**
 * Makes the maintenance queue's prune scheduler run every `everyMs` (0: removes it). BullMQ keeps one
 * scheduler per id, so workers starting together add it once; a worker takes each job it adds, and
 * the prune lock (src/retention/pruneLock.ts) keeps a prune from overlapping another worker's or the
 * `prune` command's. Answers whether it changed anything.
 */
export async function ensurePruneSchedule(queue: Queue, everyMs: number): Promise<boolean> {
  const current = await queue.getJobScheduler(PRUNE_SCHEDULER_ID);
  if (everyMs <= 0) {
    if (!current) return false;
    await queue.removeJobScheduler(PRUNE_SCHEDULER_ID);
    return true;
  }
  if (current && Number(current.every) === everyMs) return false;
  await queue.upsertJobScheduler(
    PRUNE_SCHEDULER_ID,
    { every: everyMs },
    // One attempt: a failed prune is simply the next one's work.
    { name: PRUNE_JOB, data: {}, opts: { ...JOB_RETENTION, attempts: 1 } },
  );
  return true;
}
