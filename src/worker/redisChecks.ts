import type { Logger } from 'pino';
import { maxRetriesPerRequestOf, type RedisConnection } from '../redis/connection.ts';

/** Raised when a worker connection would drop commands during a Redis blip. */
export class RedisSettingsError extends Error {
  override name = 'RedisSettingsError';
}

/**
 * Start-up checks of a worker's Redis: the connection must retry forever (`maxRetriesPerRequest:
 * null`, or BullMQ's blocking commands fail on a blip), and keys must never be evicted, since an
 * evicted job or lock silently loses work. The second is a warning: managed Redis may not let us read it.
 */
export async function checkWorkerRedis(redis: RedisConnection, logger: Logger): Promise<void> {
  if (maxRetriesPerRequestOf(redis) !== null) {
    throw new RedisSettingsError(
      'Worker Redis connections need maxRetriesPerRequest: null; create them with createWorkerRedis().',
    );
  }
  const policy = await evictionPolicy(redis);
  if (policy === undefined) {
    logger.warn('could not read Redis maxmemory-policy; make sure it is noeviction or jobs may vanish');
  } else if (policy !== 'noeviction') {
    logger.warn(
      { maxmemoryPolicy: policy },
      `Redis maxmemory-policy is ${policy}; set it to noeviction or jobs and locks may be evicted`,
    );
  }
}

async function evictionPolicy(redis: RedisConnection): Promise<string | undefined> {
  try {
    const reply = (await redis.config('GET', 'maxmemory-policy')) as unknown as string[];
    if (Array.isArray(reply) && typeof reply[1] === 'string') return reply[1];
  } catch {
    // CONFIG is often disabled on managed Redis; INFO still says it.
  }
  try {
    const info = await redis.info('memory');
    return /maxmemory_policy:(\S+)/.exec(info)?.[1];
  } catch {
    return undefined;
  }
}
