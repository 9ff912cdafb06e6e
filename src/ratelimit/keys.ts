/** Redis keys of the shared rate limit, under the deployment's queue prefix (FULFILLMENT_QUEUE_PREFIX). */
export interface RateLimitKeys {
  /** Next free slot of the budget every upstream call draws from. */
  global: string;
  /** Next free slot of the order-detail budget. */
  orderDetail: string;
  /** Until when every process holds its calls (a 429 or Retry-After seen by any of them). */
  pausedUntil: string;
}

/** The keys for one deployment; processes with the same prefix share one budget. */
export function rateLimitKeys(prefix: string): RateLimitKeys {
  return {
    global: `${prefix}:ratelimit:global`,
    orderDetail: `${prefix}:ratelimit:order-detail`,
    pausedUntil: `${prefix}:ratelimit:paused-until`,
  };
}
