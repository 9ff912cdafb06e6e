import type { Logger } from 'pino';
import type { DatabaseSettings } from '../config/types.ts';
import { createDatabase, type Database } from '../db/client.ts';
import { DEFAULT_DATABASE_SETTINGS } from '../db/limits.ts';

/** A worker's Postgres connections, in pools that cannot exhaust one another. */
export interface WorkerPools {
  /** Sync and backfill runs (and their bookkeeping). */
  sync: Database;
  /** Webhook delivery and the outbox relay. */
  webhooks: Database;
  /** Readiness checks and metrics scrapes: must answer while every run is busy. */
  ops: Database;
  /**
   * Refreshes of the analytics tables (src/analytics/refresher.ts), never a run's: one for the
   * refreshes, one for a rebuild beside them.
   */
  analytics: Database;
  /** The pruner (src/retention/): one connection, held by a prune for its lock and its batches. */
  maintenance: Database;
  close: () => Promise<void>;
}

/** How long a readiness or metrics query waits for a connection before it counts as a failure. */
const OPS_CONNECT_TIMEOUT_MS = 1_500;

/**
 * Pool sizes from WORKER_CONCURRENCY: one connection per sync slot and per backfill slot (each
 * queue runs `concurrency` jobs) plus one for bookkeeping, so a run never waits for another's
 * connection; a small fixed share for webhooks (short queries per attempt, one relay) and for
 * readiness and metrics, so neither starves while every sync slot is busy.
 */
export function workerPoolSizes(concurrency: number): {
  sync: number;
  webhooks: number;
  ops: number;
  analytics: number;
  maintenance: number;
} {
  return { sync: 2 * concurrency + 1, webhooks: 4, ops: 2, analytics: 2, maintenance: 1 };
}

/** The pools whose work is long by nature: the analytics refresh and the pruner (DATABASE_LONG_STATEMENT_TIMEOUT_MS). */
const LONG_WORK: ReadonlySet<string> = new Set(['analytics', 'maintenance']);

/**
 * Opens the pools of a worker process (application names tell them apart in pg_stat_activity),
 * each with its limits from `settings` (the DATABASE_* settings): the long ones for the analytics
 * refresh and the pruner, the ordinary ones for the rest.
 */
export function openWorkerPools(
  databaseUrl: string,
  concurrency: number,
  logger: Logger,
  settings: DatabaseSettings = DEFAULT_DATABASE_SETTINGS,
): WorkerPools {
  const sizes = workerPoolSizes(concurrency);
  const onIdleError = (error: Error) =>
    logger.warn({ err: error.message }, 'idle Postgres connection failed');
  const open = (name: keyof typeof sizes, connectionTimeoutMs?: number) =>
    createDatabase(databaseUrl, {
      max: sizes[name],
      applicationName: `fulfillment-sync worker ${name}`,
      onIdleError,
      settings,
      work: LONG_WORK.has(name) ? 'long' : 'standard',
      ...(connectionTimeoutMs === undefined ? {} : { connectionTimeoutMs }),
    });
  const sync = open('sync');
  const webhooks = open('webhooks');
  const ops = open('ops', OPS_CONNECT_TIMEOUT_MS);
  const analytics = open('analytics');
  const maintenance = open('maintenance');
  return {
    sync,
    webhooks,
    ops,
    analytics,
    maintenance,
    close: async () => {
      await Promise.all([
        sync.close(),
        webhooks.close(),
        ops.close(),
        analytics.close(),
        maintenance.close(),
      ]);
    },
  };
}
