import {
  DelayedError,
  type Job,
  type JobsOptions,
  Queue,
  type QueueOptions,
  Worker,
  type WorkerOptions,
} from 'bullmq';
import { z } from 'zod';
import {
  type DeliverDeps,
  type DeliverOutcome,
  type DeliveryJob,
  deliverEvent,
} from '../src/webhooks/deliver.ts';
import { deliveryJobKey, type Enqueue } from '../src/webhooks/relay.ts';

/** Queue and job name of webhook deliveries. */
export const WEBHOOK_QUEUE = 'webhooks';
export const DELIVER_WEBHOOK_JOB = 'deliverWebhook';

/** Payload of a delivery job: which delivery, and which of its attempts this job wakes up. */
export const deliverWebhookPayload = z.object({
  endpointId: z.string().min(1, 'endpointId is required'),
  eventId: z.string().min(1, 'eventId is required'),
  series: z.string().default(''),
  attempt: z.number().int().min(1),
});
export type DeliverWebhookPayload = z.infer<typeof deliverWebhookPayload>;

/** One attempt of a delivery to wake up, due at `dueAt` (now when absent). */
export interface Wakeup extends DeliveryJob {
  attempt: number;
  dueAt?: Date | undefined;
}

/** The job id of an attempt: the same for every producer, so adding it twice keeps one job. */
export function wakeupJobId(wakeup: Wakeup): string {
  return `${deliveryJobKey(wakeup)}_a${wakeup.attempt}`;
}

/**
 * Job options of a wake-up. A job only wakes a stored delivery (sync.webhook_delivery_states holds
 * its state), so its own retries cover the database being unreachable, never receiver failures.
 * Failed jobs are removed, so the sweeper can enqueue the attempt again once it is due.
 */
export function deliverWebhookJobOptions(wakeup: Wakeup, now = Date.now()): JobsOptions {
  return {
    jobId: wakeupJobId(wakeup),
    delay: Math.max(0, (wakeup.dueAt?.getTime() ?? now) - now),
    attempts: 5,
    backoff: { type: 'exponential', delay: 2_000 },
    removeOnComplete: { age: 3600, count: 1000 },
    removeOnFail: true,
  };
}

/** Adds wake-up jobs (addBulk; ids already in the queue are kept as they are). */
export function bullmqWakeups(queue: Queue): (wakeups: readonly Wakeup[]) => Promise<void> {
  return async (wakeups) => {
    if (wakeups.length === 0) return;
    await queue.addBulk(
      wakeups.map((wakeup) => ({
        name: DELIVER_WEBHOOK_JOB,
        data: {
          endpointId: wakeup.endpointId,
          eventId: wakeup.eventId,
          series: wakeup.series ?? '',
          attempt: wakeup.attempt,
        },
        opts: deliverWebhookJobOptions(wakeup),
      })),
    );
  };
}

/** The relay's fast path: wakes the first attempt of new deliveries at once. */
export function bullmqEnqueue(queue: Queue): Enqueue {
  const wake = bullmqWakeups(queue);
  return (jobs) => wake(jobs.map((job) => ({ ...job, attempt: 1 })));
}

/**
 * The processor: makes the attempt the job names. A delivery another worker is sending waits for
 * its lease; a failed attempt schedules the wake-up of the next one (if that fails, the sweeper
 * finds the delivery due anyway).
 */
export function createDeliverWebhookProcessor(
  deps: DeliverDeps,
  scheduleNext: (wakeup: Wakeup) => Promise<void>,
  onScheduleError?: (error: Error) => void,
): (job: Job, token: string | undefined) => Promise<DeliverOutcome> {
  return async (job, token) => {
    const payload = deliverWebhookPayload.parse(job.data);
    const outcome = await deliverEvent(deps, payload, payload.attempt);
    if (outcome.kind === 'busy') {
      await job.moveToDelayed(Math.max(outcome.until.getTime(), Date.now() + 1_000), token);
      throw new DelayedError();
    }
    if (outcome.kind === 'retry') {
      await scheduleNext({ ...payload, attempt: outcome.nextAttempt, dueAt: outcome.nextAttemptAt }).catch(
        (error: Error) => onScheduleError?.(error),
      );
    }
    return outcome;
  };
}

/** Producer queue for deliveries. */
export function createWebhookQueue(options: QueueOptions): Queue {
  return new Queue(WEBHOOK_QUEUE, options);
}

/** A worker processing delivery wake-ups; `queue` receives the wake-ups of retries. */
export function createWebhookWorker(
  deps: DeliverDeps,
  options: WorkerOptions & { queue: Queue; onScheduleError?: (error: Error) => void },
): Worker {
  const { queue, onScheduleError, ...workerOptions } = options;
  const wake = bullmqWakeups(queue);
  const processor = createDeliverWebhookProcessor(deps, (wakeup) => wake([wakeup]), onScheduleError);
  return new Worker(WEBHOOK_QUEUE, processor, { concurrency: 10, ...workerOptions });
}

/**
 * Whether the wake-up job of an attempt is missing from the queue: Redis lost it, or it ended
 * without the attempt being made, or only part of it is left (keys deleted while the queue ran).
 * What is left of such a job is removed, so the attempt can be enqueued again under its id.
 */
export function bullmqJobMissing(queue: Queue): (wakeup: Wakeup) => Promise<boolean> {
  return async (wakeup) => {
    const id = wakeupJobId(wakeup);
    const job = await queue.getJob(id);
    const state = job ? await job.getState() : 'unknown';
    if (
      job &&
      (state === 'waiting' || state === 'delayed' || state === 'active' || state === 'prioritized')
    ) {
      return false;
    }
    await queue.remove(id).catch(() => 0);
    return true;
  };
}
