import { createRedisConnection, type RedisConnection, type RedisTarget } from '../redis/connection.ts';

/** A Redis connection fit for BullMQ workers (retries forever; BullMQ requires it for blocking calls). */
export function createWorkerRedis(target: RedisTarget): RedisConnection {
  return createRedisConnection(target, { maxRetriesPerRequest: null });
}

/** A Redis connection for producers and probes: fails fast instead of queueing commands while down. */
export function createClientRedis(target: RedisTarget): RedisConnection {
  return createRedisConnection(target, {
    maxRetriesPerRequest: 1,
    enableOfflineQueue: false,
    lazyConnect: true,
  });
}
