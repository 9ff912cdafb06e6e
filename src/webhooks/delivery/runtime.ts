import type pg from 'pg';
import type { Config } from '../../config/types.ts';
import { GuardedClient, type GuardedConfig } from '../../db/guardedClient.ts';
import type { TargetPolicy } from '../endpoints/targetPolicy.ts';
import { sweepOnce } from '../recovery/sweeper.ts';
import type { DeliverDeps } from './deliver.ts';
import { type Dispatcher, startDispatcher } from './dispatcher.ts';
import { startRelayLoop } from './relay/relayLoop.ts';
import { cappedSchedule, STANDARD_SCHEDULE_MS } from './schedule.ts';

export interface WebhookDeliveryOptions {
  pool: pg.Pool;
  databaseUrl: string;
  /** Which targets may be reached (WEBHOOK_ALLOW_PRIVATE_TARGETS). */
  policy: TargetPolicy;
  resolve?: DeliverDeps['resolve'];
  /** WEBHOOK_ENDPOINT_CONCURRENCY: in flight per endpoint whose max_concurrency is null. */
  endpointConcurrency?: number;
  /** WEBHOOK_MAX_IN_FLIGHT: in flight in this process over all endpoints. */
  maxInFlight?: number;
  schedule?: readonly number[];
  /** How long one attempt may take (DELIVERY_TIMEOUT_MS unless set). */
  timeoutMs?: number;
  /** Told each delivery attempt's outcome (the worker counts them in its metrics). */
  onOutcome?: DeliverDeps['onOutcome'];
  relayIntervalMs?: number;
  /** How often the dispatcher looks for due deliveries without being told (default 1 s). */
  pollIntervalMs?: number;
  /** How often expired rotated-out secrets are dropped (default 60 s). */
  sweepIntervalMs?: number;
  /** Errors of the relay, the dispatcher and the sweeper (they carry on and try again). */
  onError?: (error: Error) => void;
}

/** What the WEBHOOK_* settings decide of a worker's delivery (the worker's and the tests' one mapping). */
export function configuredDelivery(
  settings: Config['webhooks'],
): Pick<WebhookDeliveryOptions, 'policy' | 'endpointConcurrency' | 'maxInFlight' | 'schedule' | 'timeoutMs'> {
  return {
    policy: settings,
    endpointConcurrency: settings.endpointConcurrency,
    maxInFlight: settings.maxInFlight,
    schedule: cappedSchedule(settings.retryMaxDelayMs),
    timeoutMs: settings.timeoutMs,
  };
}

/**
 * Everything the worker process needs to send webhooks, all on Postgres: the relay loop (LISTEN +
 * timer) storing deliveries, the dispatcher claiming and sending them within each endpoint's
 * limits, and the sweeper dropping rotated-out secrets.
 */
export async function startWebhookDelivery(
  options: WebhookDeliveryOptions,
): Promise<{ dispatcher: Dispatcher; sweep: () => Promise<unknown>; close: () => Promise<void> }> {
  const deps: DeliverDeps = {
    db: options.pool,
    policy: options.policy,
    resolve: options.resolve,
    schedule: options.schedule ?? STANDARD_SCHEDULE_MS,
    timeoutMs: options.timeoutMs,
    onOutcome: options.onOutcome,
  };
  const connectListener = async () => {
    // Keepalive: a LISTEN connection is idle by nature, and one on a dead path would never say so.
    // The pool's limits: opening it, its LISTEN and closing it (at stop) wait no longer than an
    // answer on a dead path.
    const client = new GuardedClient({
      connectionString: options.databaseUrl,
      keepAlive: true,
      limits: (options.pool.options as GuardedConfig).limits,
    });
    await client.connect();
    return client;
  };
  const dispatcher = await startDispatcher({
    deps,
    defaultConcurrency: options.endpointConcurrency,
    maxInFlight: options.maxInFlight,
    pollIntervalMs: options.pollIntervalMs,
    connectListener,
    onError: options.onError,
  });
  const relay = await startRelayLoop({
    pool: options.pool,
    enqueue: async () => dispatcher.wake(),
    intervalMs: options.relayIntervalMs,
    onError: options.onError,
    connectListener,
  });
  const sweep = async () => {
    try {
      await sweepOnce(options.pool);
    } catch (error) {
      options.onError?.(error as Error);
    }
  };
  const sweeper = startPeriodic(sweep, options.sweepIntervalMs ?? 60_000);
  return {
    dispatcher,
    sweep,
    close: async () => {
      await sweeper.stop();
      await relay.stop();
      await dispatcher.stop();
    },
  };
}

/** Runs `pass` every `intervalMs`, never two at once; `stop` waits for the running one. */
function startPeriodic(pass: () => Promise<void>, intervalMs: number): { stop: () => Promise<void> } {
  let stopped = false;
  let current: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const tick = () => {
    current = pass().finally(() => {
      if (!stopped) timer = setTimeout(tick, intervalMs);
    });
  };
  timer = setTimeout(tick, intervalMs);
  return {
    stop: async () => {
      stopped = true;
      clearTimeout(timer);
      await current;
    },
  };
}
