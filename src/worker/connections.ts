import { Redis } from 'ioredis';

/** A Redis connection fit for BullMQ workers (retries forever; BullMQ requires it for blocking calls). */
export function createWorkerRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: null });
}

/** A Redis connection for producers and probes: fails fast instead of queueing commands while down. */
export function createClientRedis(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 1, enableOfflineQueue: false, lazyConnect: true });
}
