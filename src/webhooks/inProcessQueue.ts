import { type DeliverDeps, type DeliverOutcome, deliverEvent } from './deliver.ts';
import { dueAttempts } from './deliveryStates.ts';
import type { Enqueue } from './relay.ts';

/**
 * Delivery without Redis, driven by an injected clock: sends every attempt stored in
 * sync.webhook_delivery_states that is due at `now()`, in the same way the worker does. Tests use
 * it to step through hours of the retry schedule instantly.
 */
export interface InProcessDelivery {
  /** Nothing to do: the relay and replays store deliveries in Postgres, where `runDue` reads them. */
  enqueue: Enqueue;
  /** Makes every attempt due at the clock's now; returns the outcomes in order. */
  runDue(): Promise<DeliverOutcome[]>;
}

/** An in-process sender over the stored deliveries (see InProcessDelivery). */
export function createInProcessDelivery(deps: DeliverDeps & { now: () => Date }): InProcessDelivery {
  return {
    enqueue: async () => {},
    async runDue() {
      const outcomes: DeliverOutcome[] = [];
      for (const due of await dueAttempts(deps.db, deps.now())) {
        outcomes.push(await deliverEvent(deps, due, due.attempt));
      }
      return outcomes;
    },
  };
}
