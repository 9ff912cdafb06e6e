import type { Logger } from 'pino';
import { DEFAULT_RETRY } from '../api/callHooks.ts';
import type { RedisTarget } from '../redis/connection.ts';
import { connectRedis, RedisUnreachableError } from '../runtime/connectRedis.ts';
import { type RateLimits, routeRateLimits } from './budgets.ts';
import { type BudgetKeys, rateLimitKeys } from './keys.ts';
import { limiterOverGate, memorySendGate, type SendGate } from './limiter.ts';
import { createSharedRateLimiter } from './sharedRateLimiter.ts';

/** The budgets a process draws from, and whether they are the deployment's shared ones. */
export interface UpstreamRateLimits {
  limits: RateLimits;
  shared: boolean;
  close: () => void;
}

export interface OpenRateLimitsOptions {
  /** Where Redis is (the configuration's `redis`, or one node's URL). */
  redis: RedisTarget;
  /** The deployment's queue prefix: processes with the same prefix share one budget. */
  prefix: string;
  rps: number;
  orderDetailRps: number;
  /** How long to wait for Redis before falling back to this process's own budget. */
  waitMs: number;
  logger: Pick<Logger, 'warn' | 'info'>;
}

/**
 * Opens the deployment-wide budgets (FULFILLMENT_RATE_LIMIT_RPS, and FULFILLMENT_ORDER_DETAIL_RPS
 * for order details) kept in Redis under the queue prefix. When Redis does not answer within
 * `waitMs`, one warning line says so and the process paces itself with in-process buckets of the
 * same rates; a later outage falls back the same way until Redis answers again.
 */
export async function openUpstreamRateLimits(options: OpenRateLimitsOptions): Promise<UpstreamRateLimits> {
  const { logger } = options;
  // This process's own send logs: the whole budget without Redis, the fallback during an outage.
  const local = {
    global: memorySendGate({ rps: options.rps }),
    orderDetail: memorySendGate({ rps: options.orderDetailRps }),
  };
  let redis: Awaited<ReturnType<typeof connectRedis>>;
  try {
    redis = await connectRedis(options.redis, {
      waitMs: options.waitMs,
      // Fail fast: a limiter must not queue behind a dead connection; it falls back instead.
      redis: { enableOfflineQueue: false, maxRetriesPerRequest: 1, commandTimeout: 1_000 },
    });
  } catch (error) {
    if (!(error instanceof RedisUnreachableError)) throw error;
    logger.warn(
      `upstream rate limit not shared with other processes: ${error.message}; this process keeps its own budget of FULFILLMENT_RATE_LIMIT_RPS`,
    );
    const limits = routeRateLimits({
      global: limiterOverGate(local.global),
      orderDetail: limiterOverGate(local.orderDetail),
    });
    return { limits, shared: false, close: () => undefined };
  }
  const keys = rateLimitKeys(options.prefix);
  const shared = (budget: BudgetKeys, rps: number, fallback: SendGate) =>
    createSharedRateLimiter({
      redis,
      keys: budget,
      pauseKey: keys.pausedUntil,
      rps,
      maxPauseWaitMs: DEFAULT_RETRY.maxRetryAfterMs ?? 60_000,
      fallback,
      onOutage: (error) =>
        logger.warn(
          { err: error.message },
          'shared upstream rate limit unavailable (Redis); this process paces itself until Redis answers',
        ),
      onRecovery: () => logger.info('shared upstream rate limit available again'),
    });
  return {
    limits: routeRateLimits({
      global: shared(keys.global, options.rps, local.global),
      orderDetail: shared(keys.orderDetail, options.orderDetailRps, local.orderDetail),
    }),
    shared: true,
    close: () => redis.disconnect(),
  };
}
