import type { JobsOptions } from 'bullmq';
import { z } from 'zod';
import type { OrderDetailFetcher } from '../src/worker/seams.ts';

/** Job name of "fetch and store one order's detail". */
export const FETCH_ORDER_DETAILS_JOB = 'fetchOrderDetails';

/** Payload of an order-detail job. */
export const fetchOrderDetailsPayload = z.object({
  accountNumber: z.string().min(1),
  orderNumber: z.string().min(1),
});
export type FetchOrderDetailsPayload = z.infer<typeof fetchOrderDetailsPayload>;

/** Retries: detail reads are idempotent; more attempts since they are cheap and rate-limited. */
export const fetchOrderDetailsRetry = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 5_000 },
} as const satisfies JobsOptions;

/** Job id: one job per order, so an order named by many changed shipments is fetched once. */
export function fetchOrderDetailsJobId(payload: FetchOrderDetailsPayload): string {
  // BullMQ forbids ':' in custom ids.
  return `order|${encodeURIComponent(payload.accountNumber)}|${encodeURIComponent(payload.orderNumber)}`;
}

/** Job options for enqueuing one order's detail. */
export function fetchOrderDetailsJobOptions(payload: FetchOrderDetailsPayload): JobsOptions {
  // Removed once done, failed included: the id deduplicates pending fetches only, so a later change
  // refetches. A failed job kept for days would hold the id and silently drop every new request for
  // the order meanwhile. The worker logs the failure when it happens.
  return {
    ...fetchOrderDetailsRetry,
    jobId: fetchOrderDetailsJobId(payload),
    removeOnComplete: true,
    removeOnFail: true,
  };
}

/** The processor: validates the payload and calls the injected fetcher. */
export function createFetchOrderDetailsProcessor(
  fetch: OrderDetailFetcher,
): (data: unknown) => Promise<void> {
  return async (data) => fetch(fetchOrderDetailsPayload.parse(data));
}
