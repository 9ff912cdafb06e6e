import { randomUUID } from 'node:crypto';
import type { RedisConnection } from '../redis/connection.ts';

/** Raised when a lock could not be taken in time; says what to look at. */
export class LockTimeoutError extends Error {
  override name = 'LockTimeoutError';
}

// Delete only if we still own it, so a lock that expired and was taken by another holder survives.
const RELEASE_SCRIPT = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;

/**
 * Runs `fn` while holding a Redis lock (SET NX PX). The TTL bounds how long a crashed holder blocks
 * others; waiters poll until `waitMs` elapses.
 */
export async function withRedisLock<T>(
  redis: RedisConnection,
  key: string,
  fn: () => Promise<T>,
  { ttlMs = 30_000, waitMs = 60_000, pollMs = 50 } = {},
): Promise<T> {
  const token = randomUUID();
  const deadline = Date.now() + waitMs;
  while ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') {
    if (Date.now() > deadline) {
      throw new LockTimeoutError(
        `Could not take the Redis lock ${key} within ${waitMs} ms: another worker holds it; if none runs, delete the key.`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  try {
    return await fn();
  } finally {
    await redis.eval(RELEASE_SCRIPT, 1, key, token);
  }
}
