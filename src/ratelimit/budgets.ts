import type { OperationId } from '../api/operations.ts';
import { createRateLimiter, NO_RATE_LIMIT, type RateLimiter } from './limiter.ts';

/** Which budget an upstream call draws from, by operation; the transport asks before every attempt. */
export type RateLimits = (operation: OperationId) => RateLimiter;

/** The operation with a budget of its own (FULFILLMENT_ORDER_DETAIL_RPS). */
export const ORDER_DETAIL_OPERATION: OperationId = 'GET Orders/Detail/{accountNumber}/{orderNumber}';

/** The budgets of one deployment: every call draws from `global`; order details from theirs too. */
export interface UpstreamBudgets {
  global: RateLimiter;
  orderDetail: RateLimiter;
}

/**
 * Routes each operation to its budgets. Order details count against their own budget AND the global
 * one: the upstream's quota is unknown, so counting them in both is the safe reading. The global
 * slot is taken last, right before the request goes, so a wait for the order-detail budget never
 * leaves a global slot unused and then bunched with the next one. A pause (429, Retry-After) is
 * set on the global budget, which every call passes through.
 */
export function routeRateLimits(budgets: UpstreamBudgets): RateLimits {
  const orderDetail: RateLimiter = {
    async acquire() {
      await budgets.orderDetail.acquire();
      await budgets.global.acquire();
    },
    pause: (ms) => budgets.global.pause(ms),
  };
  return (operation) => (operation === ORDER_DETAIL_OPERATION ? orderDetail : budgets.global);
}

/** In-process budgets (one process only): the fallback when Redis is unreachable, and tests. */
export function inProcessRateLimits(options: {
  rps: number;
  orderDetailRps?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}): RateLimits {
  const { now, sleep } = options;
  return routeRateLimits({
    global: createRateLimiter({ rps: options.rps, now, sleep }),
    orderDetail:
      options.orderDetailRps === undefined
        ? NO_RATE_LIMIT
        : createRateLimiter({ rps: options.orderDetailRps, now, sleep }),
  });
}
