import { type DeliverDeps, type DeliverOutcome, type DeliveryJob, deliverEvent } from './deliver.ts';
import { deliveryJobKey } from './relay.ts';

interface Pending {
  job: DeliveryJob;
  attempt: number;
  dueAt: number;
}

/** A delivery queue in memory, driven by an injected clock: the path `sync --once` and tests use. */
export interface InProcessDelivery {
  enqueue(jobs: readonly DeliveryJob[]): Promise<void>;
  /** Runs every attempt due at the clock's now; returns the outcomes in order. */
  runDue(): Promise<DeliverOutcome[]>;
  /** When the next attempt is due (ms since epoch), or undefined when idle. */
  nextDueAt(): number | undefined;
  size(): number;
}

/**
 * Same rules as the BullMQ path (one job per endpoint and event, the schedule, Retry-After), but
 * retries wait on `now()` so a fake clock can step through hours of schedule instantly.
 */
export function createInProcessDelivery(deps: DeliverDeps & { now: () => Date }): InProcessDelivery {
  const pending = new Map<string, Pending>();
  const finished = new Set<string>();
  return {
    async enqueue(jobs) {
      for (const job of jobs) {
        const key = deliveryJobKey(job);
        if (pending.has(key) || finished.has(key)) continue;
        pending.set(key, { job, attempt: 1, dueAt: deps.now().getTime() });
      }
    },
    async runDue() {
      const outcomes: DeliverOutcome[] = [];
      const due = [...pending.entries()].filter(([, p]) => p.dueAt <= deps.now().getTime());
      for (const [key, item] of due) {
        const outcome = await deliverEvent(deps, item.job, item.attempt);
        outcomes.push(outcome);
        if (outcome.kind === 'retry') {
          pending.set(key, {
            ...item,
            attempt: item.attempt + 1,
            dueAt: deps.now().getTime() + outcome.delayMs,
          });
        } else {
          pending.delete(key);
          finished.add(key);
        }
      }
      return outcomes;
    },
    nextDueAt() {
      const times = [...pending.values()].map((p) => p.dueAt);
      return times.length > 0 ? Math.min(...times) : undefined;
    },
    size() {
      return pending.size;
    },
  };
}
