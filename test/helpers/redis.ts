import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * A Redis key prefix unique to one test file (or test): `fst:<name>:<random>`. Pass it as BullMQ's
 * `prefix` (which adds its own ':') or prepend it with ':' to plain keys.
 */
export function testRedisPrefix(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_-]+/g, '-').slice(0, 40);
  return `fst:${safe}:${randomBytes(4).toString('hex')}`;
}

/** Deletes every key under the prefix (SCAN + UNLINK, never KEYS). Returns how many went. */
export async function cleanupRedisPrefix(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let removed = 0;
  const pattern = `${prefix.replace(/[*?[\]\\]/g, '\\$&')}*`;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    if (keys.length > 0) removed += await redis.unlink(...keys);
  } while (cursor !== '0');
  return removed;
}

/** Deletes every key under the prefix on the Redis at `url`, on a connection of its own. */
export async function dropRedisPrefix(url: string, prefix: string): Promise<void> {
  const { Redis: Client } = await import('ioredis');
  const redis = new Client(url, { maxRetriesPerRequest: 1 });
  try {
    await cleanupRedisPrefix(redis, prefix);
  } finally {
    redis.disconnect();
  }
}
