import type pg from 'pg';
import type { Queryable } from '../../db/queryable.ts';
import { type ClaimedDelivery, claimDue, nextClaimAt } from './claim.ts';
import { type DeliverDeps, leaseMsFor, type SendDeps, sendLeased } from './deliver.ts';
import type { DeliveryKey } from './deliveryStates.ts';
import { keepListening } from './listen.ts';
import type { OutcomeRecord } from './outcomes/outcomeRecord.ts';
import { createOutcomeRecorder } from './outcomes/outcomes.ts';
import { claimedContext, type SendContext } from './sendContext.ts';

/** The channel on which new deliveries are announced (relay, replay, test ping); no payload. */
export const DELIVERIES_CHANNEL = 'fulfillment_deliveries';

/** Announces stored deliveries to every worker's dispatcher; inside a transaction, at its commit. */
export async function announceDeliveries(db: Queryable): Promise<void> {
  await db.query(`SELECT pg_notify('${DELIVERIES_CHANNEL}', '')`);
}

/** An endpoint's concurrency when its max_concurrency is null (WEBHOOK_ENDPOINT_CONCURRENCY). */
export const DEFAULT_ENDPOINT_CONCURRENCY = 10;

/** Deliveries one process has in flight at most, over all endpoints (sockets, memory). */
export const DEFAULT_MAX_IN_FLIGHT = 1000;

export interface DispatcherOptions {
  deps: DeliverDeps;
  /** WEBHOOK_ENDPOINT_CONCURRENCY: concurrency of endpoints whose max_concurrency is null. */
  defaultConcurrency?: number;
  /** WEBHOOK_MAX_IN_FLIGHT: this process's cap over all endpoints. */
  maxInFlight?: number;
  /** Most deliveries one claim takes (default 200). */
  claimBatch?: number;
  /**
   * How often to look for work anyway (default 1 s): slots other workers freed, pacing, a missed
   * announcement.
   */
  pollIntervalMs?: number;
  /** Opens a dedicated LISTEN connection for announcements; without it the dispatcher only polls. */
  connectListener?: () => Promise<pg.Client>;
  onError?: (error: Error) => void;
}

export interface Dispatcher {
  /** Look for due deliveries now (new ones were stored). */
  wake(): void;
  /** Deliveries this process is sending. */
  inFlight(): number;
  /** Claims nothing more and waits for the deliveries in flight. */
  stop(): Promise<void>;
}

/**
 * Sends stored deliveries (sync.webhook_delivery_states) as they come due: claims them in batches
 * within each endpoint's own limits (see claimDue), sends each claimed delivery at once, and
 * claims again whenever one finishes, a delivery is announced, the next one comes due, or the
 * poll interval passes. Several processes may run one: the claim's lease keeps a delivery with
 * one sender, and an endpoint's limits count every worker's deliveries. A slow endpoint holds only
 * its own slots, so the others' deliveries never wait behind it. Postgres is the whole queue: a
 * Redis restart loses no delivery and delays none.
 */
export async function startDispatcher(options: DispatcherOptions): Promise<Dispatcher> {
  const { deps } = options;
  const db = deps.db;
  const now = deps.now ?? (() => new Date());
  const maxInFlight = options.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  const claimBatch = options.claimBatch ?? 200;
  const pollIntervalMs = options.pollIntervalMs ?? 1000;
  const onError = (error: Error) => options.onError?.(error);
  const running = new Set<Promise<void>>();
  let claiming = false;
  let again = false;
  let stopped = false;
  let dueTimer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  // Deliveries whose attempt is over while their outcome is being committed (see ClaimOptions.settled).
  const settled = new Map<string, DeliveryKey>();
  // Per endpoint, the oldest due time the last claim took (see ClaimOptions.floors); the poll
  // interval's claim looks from the start.
  const floors = new Map<string, Date>();
  let fullScanDue = true;
  const recordOutcome = deps.recordOutcome ?? createOutcomeRecorder(db);
  const sendDeps: SendDeps = {
    ...deps,
    // After a plain success the slot frees when the receiver has answered, not when the answer is
    // stored: a claim may refill it at once, so the write's commit never sets the pace of a
    // healthy endpoint. Any other outcome changes what the claim must know first (a pause, the
    // failing endpoint's single slot, the retry's due time), so its slot waits for the commit.
    recordOutcome: async (record) => {
      if (!freesAtOnce(record)) return recordOutcome(record);
      const key = settledKey(record.job);
      settled.set(key, record.job);
      wake();
      try {
        await recordOutcome(record);
      } finally {
        settled.delete(key);
      }
    },
  };
  const send = (claimed: ClaimedDelivery, context: SendContext) => {
    const sending: Promise<void> = sendLeased(sendDeps, claimed, claimed, context)
      .then(
        () => undefined,
        (error: Error) => onError(error),
      )
      .finally(() => {
        running.delete(sending);
        wake();
      });
    running.add(sending);
  };

  /** Claims until nothing more can start, then arms a timer for the next due time. */
  const pump = async (): Promise<void> => {
    do {
      again = false;
      const room = Math.min(maxInFlight - running.size, claimBatch);
      if (room <= 0) return;
      const claimedAt = now();
      const claimed = await claimDue(db, {
        now: claimedAt,
        defaultConcurrency: options.defaultConcurrency ?? DEFAULT_ENDPOINT_CONCURRENCY,
        limit: room,
        leaseMs: leaseMsFor(deps),
        settled: [...settled.values()],
        floors: fullScanDue ? undefined : floors,
      });
      fullScanDue = false;
      for (const [endpointId, at] of oldestClaimed(claimed)) floors.set(endpointId, at);
      for (const delivery of claimed) send(delivery, claimedContext(delivery));
      if (claimed.length === room) again = true;
      // From the claim's clock: what came due since it read is due at once, not forgotten.
      else if (claimed.length === 0) await armDueTimer(claimedAt);
    } while (again && !stopped);
  };

  const armDueTimer = async (claimedAt: Date) => {
    const at = await nextClaimAt(db, claimedAt);
    if (!at || stopped) return;
    const delay = Math.max(0, at.getTime() - now().getTime());
    if (delay >= pollIntervalMs) return;
    clearTimeout(dueTimer);
    dueTimer = setTimeout(wake, delay + 5);
  };

  function wake(): void {
    if (stopped) return;
    if (claiming) {
      again = true;
      return;
    }
    claiming = true;
    current = pump()
      .catch((error: Error) => onError(error))
      .finally(() => {
        claiming = false;
        // Woken while the last claim was on its way back: claim again.
        if (again && !stopped) wake();
      });
  }

  const listen = options.connectListener
    ? await keepListening(options.connectListener, DELIVERIES_CHANNEL, wake, {
        maxBackoffMs: 30_000,
        onError,
        isStopped: () => stopped,
      })
    : undefined;
  const poll = setInterval(() => {
    fullScanDue = true;
    wake();
  }, pollIntervalMs);
  wake();
  return {
    wake,
    inFlight: () => running.size,
    stop: async () => {
      stopped = true;
      clearInterval(poll);
      clearTimeout(dueTimer);
      await current;
      await listen?.close();
      await Promise.allSettled([...running]);
    },
  };
}

/** A success of an endpoint that was not failing: recording it changes nothing a claim reads but the lease. */
function freesAtOnce(record: OutcomeRecord): boolean {
  return record.status === 'succeeded' && !record.endpoint.failingSince && !record.verdict.disableReason;
}

function settledKey(key: DeliveryKey): string {
  return JSON.stringify([key.endpointId, key.eventId, key.series ?? '']);
}

/** Each endpoint's oldest due time among claimed deliveries. Pure. */
export function oldestClaimed(claimed: readonly ClaimedDelivery[]): Map<string, Date> {
  const oldest = new Map<string, Date>();
  for (const delivery of claimed) {
    const current = oldest.get(delivery.endpointId);
    if (!current || delivery.dueAt < current) oldest.set(delivery.endpointId, delivery.dueAt);
  }
  return oldest;
}
