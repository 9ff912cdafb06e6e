import { type JobsOptions, Queue, type QueueOptions, Worker, type WorkerOptions } from 'bullmq';
import { z } from 'zod';
import {
  type DeliverDeps,
  type DeliverOutcome,
  type DeliveryJob,
  deliverEvent,
} from '../src/webhooks/deliver.ts';
import { deliveryJobKey, type Enqueue } from '../src/webhooks/relay.ts';
import { maxAttempts, STANDARD_SCHEDULE_MS } from '../src/webhooks/schedule.ts';

/** Queue and job name of webhook deliveries. */
export const WEBHOOK_QUEUE = 'webhooks';
export const DELIVER_WEBHOOK_JOB = 'deliverWebhook';
/** The custom backoff type: waits follow the Standard Webhooks schedule and Retry-After. */
export const WEBHOOK_BACKOFF = 'standard-webhooks';

/** Payload of a delivery job. */
export const deliverWebhookPayload = z.object({
  endpointId: z.string().min(1, 'endpointId is required'),
  eventId: z.string().min(1, 'eventId is required'),
  replayOf: z.string().optional(),
});
export type DeliverWebhookPayload = z.infer<typeof deliverWebhookPayload>;

/** A failed attempt that should be retried after `delayMs` (read by the backoff strategy). */
export class DeliveryRetryError extends Error {
  override name = 'DeliveryRetryError';
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}

/**
 * Job options: jobId = endpoint_event so an event is never enqueued twice for an endpoint, and
 * as many attempts as the schedule has entries.
 */
export function deliverWebhookJobOptions(job: DeliveryJob, schedule = STANDARD_SCHEDULE_MS): JobsOptions {
  return {
    jobId: deliveryJobKey(job),
    attempts: maxAttempts(schedule),
    backoff: { type: WEBHOOK_BACKOFF },
    removeOnComplete: { age: 3600, count: 1000 },
    removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
  };
}

/**
 * The worker's backoff strategy: the delay `deliverEvent` already chose (schedule + jitter +
 * Retry-After) travels on the error; anything else waits the scheduled time.
 */
export function webhookBackoffStrategy(attemptsMade: number, _type?: string, err?: Error): number {
  if (err instanceof DeliveryRetryError) return err.delayMs;
  return STANDARD_SCHEDULE_MS[attemptsMade] ?? STANDARD_SCHEDULE_MS[1] ?? 5000;
}

/** The processor: validates the payload, makes attempt number attemptsMade + 1, throws to retry. */
export function createDeliverWebhookProcessor(
  deps: DeliverDeps,
): (job: { data: unknown; attemptsMade: number }) => Promise<DeliverOutcome> {
  return async (job) => {
    const payload = deliverWebhookPayload.parse(job.data);
    const outcome = await deliverEvent(deps, payload, job.attemptsMade + 1);
    if (outcome.kind === 'retry') throw new DeliveryRetryError(outcome.error, outcome.delayMs);
    return outcome;
  };
}

/** An Enqueue onto the BullMQ queue (addBulk; existing job ids are ignored by BullMQ). */
export function bullmqEnqueue(queue: Queue, schedule = STANDARD_SCHEDULE_MS): Enqueue {
  return async (jobs) => {
    await queue.addBulk(
      jobs.map((job) => ({
        name: DELIVER_WEBHOOK_JOB,
        data: job,
        opts: deliverWebhookJobOptions(job, schedule),
      })),
    );
  };
}

/** Producer queue for deliveries. */
export function createWebhookQueue(options: QueueOptions): Queue {
  return new Queue(WEBHOOK_QUEUE, options);
}

/** A worker processing deliveries with the webhook backoff strategy. */
export function createWebhookWorker(deps: DeliverDeps, options: WorkerOptions): Worker {
  const processor = createDeliverWebhookProcessor(deps);
  return new Worker(WEBHOOK_QUEUE, async (job) => processor(job), {
    concurrency: 10,
    ...options,
    settings: { ...options.settings, backoffStrategy: webhookBackoffStrategy },
  });
}
