import type { Queryable } from '../db/queryable.ts';
import { type DueAttempt, dueAttempts } from './deliveryStates.ts';
import { dropExpiredSecrets } from './endpoints.ts';

/** What the sweeper needs of the queue: whether an attempt's wake-up job is there, and how to add one. */
export interface SweeperQueue {
  jobMissing: (attempt: DueAttempt) => Promise<boolean>;
  wake: (attempts: readonly DueAttempt[]) => Promise<void>;
}

/**
 * One pass: every pending delivery that is due and held by no sender gets its wake-up job again
 * when the queue lost it (Redis flushed or restarted without its data). Safe with several workers
 * at once: job ids are per attempt, so adding one twice keeps one job, and the delivery's lease
 * lets one sender make the attempt. Also forgets rotated-out secrets whose overlap has ended.
 */
export async function sweepOnce(
  db: Queryable,
  queue: SweeperQueue,
  options: { now?: Date; limit?: number } = {},
): Promise<{ due: number; reenqueued: number; secretsDropped: number }> {
  const now = options.now ?? new Date();
  const secretsDropped = await dropExpiredSecrets(db, now);
  const due = await dueAttempts(db, now, options.limit ?? 500);
  const missing: DueAttempt[] = [];
  for (const attempt of due) if (await queue.jobMissing(attempt)) missing.push(attempt);
  await queue.wake(missing);
  return { due: due.length, reenqueued: missing.length, secretsDropped };
}
