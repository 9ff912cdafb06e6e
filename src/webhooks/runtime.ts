import type { Queue, Worker } from 'bullmq';
import pg from 'pg';
import {
  bullmqEnqueue,
  bullmqJobMissing,
  bullmqWakeups,
  createWebhookQueue,
  createWebhookWorker,
} from '../../jobs/deliverWebhook.ts';
import type { RedisConnection } from '../redis/connection.ts';
import type { DeliverDeps } from './deliver.ts';
import { startRelayLoop } from './relayLoop.ts';
import { STANDARD_SCHEDULE_MS } from './schedule.ts';
import { sweepOnce } from './sweeper.ts';
import type { TargetPolicy } from './targetPolicy.ts';

export interface WebhookDeliveryOptions {
  pool: pg.Pool;
  databaseUrl: string;
  /** BullMQ connections: the producer's and a separate one (maxRetriesPerRequest: null) for the worker. */
  producerConnection: RedisConnection;
  workerConnection: RedisConnection;
  prefix: string;
  /** Which targets may be reached (WEBHOOK_ALLOW_PRIVATE_TARGETS). */
  policy: TargetPolicy;
  resolve?: DeliverDeps['resolve'];
  concurrency?: number;
  schedule?: readonly number[];
  /** How long one attempt may take (DELIVERY_TIMEOUT_MS unless set). */
  timeoutMs?: number;
  disableAfterMs?: number;
  /** Told each delivery attempt's outcome (the worker counts them in its metrics). */
  onOutcome?: DeliverDeps['onOutcome'];
  relayIntervalMs?: number;
  /** How often due deliveries are checked for a lost wake-up job (default 5 s). */
  sweepIntervalMs?: number;
  /** Told what a sweep re-enqueued (the worker logs it). */
  onSweep?: (result: Awaited<ReturnType<typeof sweepOnce>>) => void;
  /** Errors of the relay and the sweeper (they carry on and try again at their next pass). */
  onError?: (error: Error) => void;
  /** Redis errors of the queue and worker, and failed wake-ups (deliveries are safe in Postgres). */
  onRedisError?: (error: Error) => void;
}

/**
 * Everything the worker process needs to send webhooks: the `webhooks` queue and its BullMQ worker
 * (one wake-up job per attempt), the relay loop (LISTEN + timer) storing deliveries in Postgres,
 * and the sweeper that re-enqueues due deliveries whose job Redis lost.
 */
export async function startWebhookDelivery(
  options: WebhookDeliveryOptions,
): Promise<{ queue: Queue; worker: Worker; sweep: () => Promise<unknown>; close: () => Promise<void> }> {
  const onRedisError = (error: Error) => options.onRedisError?.(error);
  const queue = createWebhookQueue({ connection: options.producerConnection, prefix: options.prefix });
  queue.on('error', onRedisError);
  const deps: DeliverDeps = {
    db: options.pool,
    policy: options.policy,
    resolve: options.resolve,
    schedule: options.schedule ?? STANDARD_SCHEDULE_MS,
    timeoutMs: options.timeoutMs,
    disableAfterMs: options.disableAfterMs,
    onOutcome: options.onOutcome,
  };
  const worker = createWebhookWorker(deps, {
    queue,
    connection: options.workerConnection,
    prefix: options.prefix,
    concurrency: options.concurrency ?? 10,
    onScheduleError: onRedisError,
  });
  worker.on('error', onRedisError);
  const relay = await startRelayLoop({
    pool: options.pool,
    enqueue: bullmqEnqueue(queue),
    intervalMs: options.relayIntervalMs,
    onError: options.onError,
    onEnqueueError: onRedisError,
    connectListener: async () => {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      return client;
    },
  });
  const sweeperQueue = { jobMissing: bullmqJobMissing(queue), wake: bullmqWakeups(queue) };
  const sweep = async () => {
    try {
      const result = await sweepOnce(options.pool, sweeperQueue);
      options.onSweep?.(result);
    } catch (error) {
      options.onError?.(error as Error);
    }
  };
  const sweeper = startPeriodic(sweep, options.sweepIntervalMs ?? 5_000);
  return {
    queue,
    worker,
    sweep,
    close: async () => {
      await sweeper.stop();
      await relay.stop();
      await worker.close();
      await queue.close();
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
