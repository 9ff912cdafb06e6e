import pino from 'pino';
import { loadConfig } from '../../src/config/loadConfig.ts';
import type { Queryable } from '../../src/db/queryable.ts';
import {
  configuredDelivery,
  listAttempts,
  type Resolve,
  startWebhookDelivery,
} from '../../src/webhooks/index.ts';
import { openWorkerPools } from '../../src/worker/pools.ts';
import { waitFor } from './waitFor.ts';

/**
 * The production delivery engine for tests: what a worker process runs to send webhooks (the relay
 * loop, the dispatcher's claim within each endpoint's limits, the outcomes' group commit, the
 * sweeper), on the worker's own Postgres pools, configured from WEBHOOK_* settings as the worker
 * reads them. Tests wait on what it leaves in Postgres or at a receiver, never on a sleep.
 */

/** How long a test waits for a condition: only a hang takes this long, a slow machine never does. */
export const HANG_CEILING_MS = 60_000;

/** Retries within a fraction of a second (WEBHOOK_RETRY_MAX_DELAY_MS at its minimum): the whole schedule in about a second. */
export const QUICK_RETRIES = { WEBHOOK_RETRY_MAX_DELAY_MS: '100' } as const;

export interface DeliveryEngine {
  /** What the relay, the dispatcher and the sweeper reported (they carry on); a test takes what it expects. */
  errors: Error[];
  /** Stops relaying and claiming, waits for the deliveries in flight, closes the pools. */
  stop(): Promise<void>;
}

export interface DeliveryEngineOptions {
  /**
   * Settings over the defaults, as a worker reads them (WEBHOOK_RETRY_MAX_DELAY_MS, WEBHOOK_TIMEOUT_MS,
   * WEBHOOK_ALLOW_PRIVATE_TARGETS...). Private targets are allowed unless set: test receivers
   * listen on 127.0.0.1.
   */
  env?: Record<string, string>;
  /** Host name resolution, where a test resolves names of its own (the system resolver otherwise). */
  resolve?: Resolve;
}

const running = new Set<DeliveryEngine>();
const silent = pino({ level: 'silent' });

/** Starts a worker's webhook delivery against the database at `databaseUrl`. */
export async function startDeliveryEngine(
  databaseUrl: string,
  options: DeliveryEngineOptions = {},
): Promise<DeliveryEngine> {
  const config = loadConfig({
    DATABASE_URL: databaseUrl,
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...options.env,
  });
  const pools = openWorkerPools(config.databaseUrl, config.worker.concurrency, silent);
  const errors: Error[] = [];
  const delivery = await startWebhookDelivery({
    pool: pools.webhooks.pool,
    databaseUrl: config.databaseUrl,
    ...configuredDelivery(config.webhooks),
    resolve: options.resolve,
    onError: (error) => errors.push(error),
  });
  let stopped: Promise<void> | undefined;
  const engine: DeliveryEngine = {
    errors,
    stop: () => {
      running.delete(engine);
      stopped ??= delivery.close().then(() => pools.close());
      return stopped;
    },
  };
  running.add(engine);
  return engine;
}

/**
 * Stops every engine still running (for afterEach/afterAll), then fails if one reported an error
 * its test did not take: an engine that failed quietly must not pass for one that worked.
 */
export async function stopDeliveryEngines(): Promise<void> {
  const engines = [...running];
  await Promise.all(engines.map((engine) => engine.stop()));
  const left = engines.flatMap((engine) => engine.errors.splice(0));
  if (left.length > 0) {
    throw new Error(`the delivery engine reported: ${left.map((error) => error.message).join('; ')}`);
  }
}

/** Waits until `check` holds, with the hang ceiling. */
export function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  return waitFor(what, check, HANG_CEILING_MS);
}

/** Where one delivery of an event stands (a row of sync.webhook_delivery_states). */
export interface DeliveryStateRow {
  endpointId: string;
  series: string;
  status: string;
  attemptsMade: number;
  lastError: string | null;
  nextAttemptAt: Date | null;
}

/** Every delivery of an event, oldest first. */
export async function deliveriesOf(db: Queryable, eventId: string): Promise<DeliveryStateRow[]> {
  const { rows } = await db.query<{
    endpoint_id: string;
    series: string;
    status: string;
    attempts_made: number;
    last_error: string | null;
    next_attempt_at: Date | null;
  }>(
    `SELECT endpoint_id, series, status, attempts_made, last_error, next_attempt_at
       FROM sync.webhook_delivery_states WHERE event_id = $1 ORDER BY created_at, endpoint_id, series`,
    [eventId],
  );
  return rows.map((row) => ({
    endpointId: row.endpoint_id,
    series: row.series,
    status: row.status,
    attemptsMade: Number(row.attempts_made),
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at,
  }));
}

/**
 * Waits until the relay has fanned each event out and every delivery of it has finished (none
 * pending): what was going to be sent now has been. Returns each event's deliveries.
 */
export async function waitSettled(db: Queryable, eventIds: readonly string[]): Promise<DeliveryStateRow[][]> {
  await until(`events ${eventIds.join(', ')} relayed and their deliveries finished`, async () => {
    const { rows } = await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sync.events e
        WHERE e.id = ANY($1) AND e.dispatched_at IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM sync.webhook_delivery_states s
                           WHERE s.event_id = e.id AND s.status = 'pending')`,
      [eventIds],
    );
    return rows[0]?.n === eventIds.length;
  });
  return Promise.all(eventIds.map((id) => deliveriesOf(db, id)));
}

/** Waits until the relay has fanned the events out (stamped them dispatched). */
export async function waitRelayed(db: Queryable, eventIds: readonly string[]): Promise<void> {
  await until(`events ${eventIds.join(', ')} relayed`, async () => {
    const { rows } = await db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM sync.events WHERE id = ANY($1) AND dispatched_at IS NOT NULL',
      [eventIds],
    );
    return rows[0]?.n === eventIds.length;
  });
}

/** Waits until an attempt of the event has `status` (to any endpoint); returns the event's attempts. */
export async function waitForAttempt(
  db: Queryable,
  eventId: string,
  status: 'succeeded' | 'failed' | 'gave_up',
  endpointId?: string,
): ReturnType<typeof listAttempts> {
  const matching = async () =>
    (await listAttempts(db, eventId)).filter((a) => endpointId === undefined || a.endpointId === endpointId);
  await until(`a ${status} attempt of ${eventId}`, async () =>
    (await matching()).some((a) => a.status === status),
  );
  return matching();
}

/**
 * Lets a wait a test cannot sit out pass (an hour of Retry-After, a day of retry delay): the
 * endpoint's pending deliveries come due now and its pause ends, as they would when that time has
 * passed. Nothing else changes: the dispatcher finds them due as it finds any.
 */
export async function letWaitPass(db: Queryable, endpointId: string): Promise<void> {
  await db.query(
    `UPDATE sync.webhook_delivery_states SET next_attempt_at = now()
      WHERE endpoint_id = $1 AND status = 'pending'`,
    [endpointId],
  );
  await db.query('UPDATE sync.webhook_endpoints SET paused_until = NULL WHERE id = $1', [endpointId]);
}
