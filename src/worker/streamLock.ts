import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';

const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const EXTEND = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;

/** A held lock; `release` is idempotent. */
export interface HeldLock {
  key: string;
  release: () => Promise<void>;
}

/**
 * Takes a Redis lock if free (SET NX PX) and keeps extending it while held, so at most one run of a
 * stream and scope is in progress across all workers. A crashed holder's lock expires after `ttlMs`.
 * Answers undefined when another holder has it.
 */
export async function tryStreamLock(
  redis: Redis,
  key: string,
  ttlMs = 30_000,
): Promise<HeldLock | undefined> {
  const token = randomUUID();
  if ((await redis.set(key, token, 'PX', ttlMs, 'NX')) !== 'OK') return undefined;
  const timer = setInterval(
    () => {
      redis.eval(EXTEND, 1, key, token, String(ttlMs)).catch(() => undefined);
    },
    Math.max(1000, Math.floor(ttlMs / 3)),
  );
  timer.unref();
  let released = false;
  return {
    key,
    release: async () => {
      if (released) return;
      released = true;
      clearInterval(timer);
      await redis.eval(RELEASE, 1, key, token).catch(() => undefined);
    },
  };
}
