import {
  type ConnectionBehaviour,
  createRedisConnection,
  type RedisConnection,
  type RedisTarget,
} from '../redis/connection.ts';
import { describeRedis, redisVariables } from '../redis/describe.ts';

/** Redis did not answer within the bounded wait of a command's start. */
export class RedisUnreachableError extends Error {
  override name = 'RedisUnreachableError';
}

export interface ConnectRedisOptions {
  /** How long to keep trying before giving up (the connection retries with backoff meanwhile). */
  waitMs: number;
  /** How the connection behaves (e.g. `enableOfflineQueue: false` for a fail-fast client). */
  redis?: Partial<ConnectionBehaviour>;
  /** Told about connection errors after the connection is up (an outage, a restart); never thrown. */
  onError?: (error: Error) => void;
}

/**
 * Opens a Redis connection and waits up to `waitMs` for it to be ready. On time-out it disconnects
 * and throws `RedisUnreachableError`, one line naming where Redis is (no password) and the last
 * connection error. Error events always have a listener, so an outage is never printed as ioredis'
 * "Unhandled error event" stack trace.
 */
export async function connectRedis(
  target: RedisTarget,
  options: ConnectRedisOptions,
): Promise<RedisConnection> {
  const redis = createRedisConnection(target, {
    maxRetriesPerRequest: 20,
    lazyConnect: true,
    connectTimeout: Math.max(100, Math.min(options.waitMs, 10_000)),
    // Quick retries while starting, so the wait ends as soon as Redis comes up; capped later on.
    retryStrategy: (attempt) => Math.min(100 * attempt, 2_000),
    ...options.redis,
  });
  let lastError: string | undefined;
  let ready = false;
  redis.on('error', (error: Error) => {
    if (ready) options.onError?.(error);
    else lastError = error.message;
  });
  ready = await waitUntilReady(redis, options.waitMs);
  if (!ready) {
    redis.disconnect();
    const seconds = Math.round(options.waitMs / 100) / 10;
    throw new RedisUnreachableError(
      `${describeRedis(target)} is unreachable after ${seconds} s (${lastError ?? 'no answer'}); start it or set ${redisVariables(target)}`,
    );
  }
  return redis;
}

/** Resolves true once the connection is ready, false when `waitMs` passes first. */
function waitUntilReady(redis: RedisConnection, waitMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      resolve(false);
    }, waitMs);
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    redis.once('ready', onReady);
    // The first failure rejects connect(); the retry strategy keeps trying until the timer ends.
    redis.connect().catch(() => undefined);
  });
}
