/** Redis keys of one budget: its send log and its schedule (see src/ratelimit/sendWindow.ts). */
export interface BudgetKeys {
  /** Times of the budget's last requests let through (a list, newest first). */
  sent: string;
  /** When the schedule lets the next request go. */
  nextDue: string;
}

/** Redis keys of the shared rate limit, under the deployment's queue prefix (FULFILLMENT_QUEUE_PREFIX). */
export interface RateLimitKeys {
  /** The budget every upstream call draws from. */
  global: BudgetKeys;
  /** The order-detail budget. */
  orderDetail: BudgetKeys;
  /** Until when every process holds its calls (a 429 or Retry-After seen by any of them). */
  pausedUntil: string;
}

function budgetKeys(base: string): BudgetKeys {
  // The schedule keeps the key of the earlier limiter's next slot, which meant the same: a process
  // of the previous version running beside this one during a rolling update still spaces after it.
  return { sent: `${base}:sent`, nextDue: base };
}

/** The keys for one deployment; processes with the same prefix share one budget. */
export function rateLimitKeys(prefix: string): RateLimitKeys {
  return {
    global: budgetKeys(`${prefix}:ratelimit:global`),
    orderDetail: budgetKeys(`${prefix}:ratelimit:order-detail`),
    pausedUntil: `${prefix}:ratelimit:paused-until`,
  };
}
