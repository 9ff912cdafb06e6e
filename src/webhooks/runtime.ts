import type { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { bullmqEnqueue, createWebhookQueue, createWebhookWorker } from '../../jobs/deliverWebhook.ts';
import type { DeliverDeps } from './deliver.ts';
import { startRelayLoop } from './relayLoop.ts';
import { STANDARD_SCHEDULE_MS } from './schedule.ts';

export interface WebhookDeliveryOptions {
  pool: pg.Pool;
  databaseUrl: string;
  /** BullMQ connections: the producer's and a separate one (maxRetriesPerRequest: null) for the worker. */
  producerConnection: Redis;
  workerConnection: Redis;
  prefix: string;
  concurrency?: number;
  schedule?: readonly number[];
  disableAfterMs?: number;
  /** Told each delivery attempt's outcome (the worker counts them in its metrics). */
  onOutcome?: DeliverDeps['onOutcome'];
  relayIntervalMs?: number;
  onError?: (error: Error) => void;
}

/**
 * Everything the worker process needs to send webhooks: the `webhooks` queue, its BullMQ worker
 * (custom backoff on the Standard Webhooks schedule) and the relay loop (LISTEN + timer) feeding it.
 */
export async function startWebhookDelivery(
  options: WebhookDeliveryOptions,
): Promise<{ queue: Queue; worker: Worker; close: () => Promise<void> }> {
  const schedule = options.schedule ?? STANDARD_SCHEDULE_MS;
  const queue = createWebhookQueue({ connection: options.producerConnection, prefix: options.prefix });
  const deps: DeliverDeps = {
    db: options.pool,
    schedule,
    disableAfterMs: options.disableAfterMs,
    onOutcome: options.onOutcome,
  };
  const worker = createWebhookWorker(deps, {
    connection: options.workerConnection,
    prefix: options.prefix,
    concurrency: options.concurrency ?? 10,
  });
  worker.on('error', (error) => options.onError?.(error));
  const relay = await startRelayLoop({
    pool: options.pool,
    enqueue: bullmqEnqueue(queue, schedule),
    intervalMs: options.relayIntervalMs,
    onError: options.onError,
    connectListener: async () => {
      const client = new pg.Client({ connectionString: options.databaseUrl });
      await client.connect();
      return client;
    },
  });
  return {
    queue,
    worker,
    close: async () => {
      await relay.stop();
      await worker.close();
      await queue.close();
    },
  };
}
