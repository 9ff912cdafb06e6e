import type { ConnectionOptions, QueueOptions } from 'bullmq';

/** Queue names, one per job kind; the Redis key prefix separates deployments and test files. */
export const QUEUE_NAMES = {
  sync: 'sync',
  backfill: 'backfill',
  /** Housekeeping of the worker's own tables: the pruner (src/retention/). */
  maintenance: 'maintenance',
} as const;
export type QueueKind = keyof typeof QUEUE_NAMES;

/** Default BullMQ key prefix (defined with the configuration); tests pass a unique one per file. */
export { DEFAULT_QUEUE_PREFIX } from '../config/types.ts';

/** Where the queues live: a Redis connection plus the key prefix shared by every queue and worker. */
export interface QueueLocation {
  connection: ConnectionOptions;
  prefix: string;
}

/**
 * Keeps Redis flat: completed jobs kept one hour (at most 1000), failed ones a week (at most 5000),
 * enough to inspect recent failures on the dashboard without unbounded growth.
 */
export const JOB_RETENTION = {
  removeOnComplete: { age: 3600, count: 1000 },
  removeOnFail: { age: 7 * 24 * 3600, count: 5000 },
} as const;

/** Options for a producer-side Queue of the given location. */
export function queueOptions(location: QueueLocation): QueueOptions {
  return {
    connection: location.connection,
    prefix: location.prefix,
    defaultJobOptions: { ...JOB_RETENTION },
  };
}
