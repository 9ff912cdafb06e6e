import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { inject } from 'vitest';
import { STREAM_NAMES } from '../../src/config/types.ts';
import type { Rates } from '../../src/simulator/evolve/rates.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { deploymentPrefix, readDeploymentTag } from '../../src/worker/deployment.ts';
import { QUEUE_NAMES } from '../../src/worker/queues.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { QUICK_CONFIRMATIONS, SIMULATOR_TOKEN } from '../helpers/syncHarness.ts';
import { deletePrefix, uniquePrefix } from './fixtures.ts';
import { spawnWorker, type WorkerProcess } from './spawnWorker.ts';

/** What a test of real worker processes needs: their database, upstream, Redis and sync queue. */
export interface WorkerHarness {
  t: TestDatabase;
  sim: RunningSimulator;
  /** The workers' sync queue (this file's own Redis key prefix and the database's identity), to add jobs and read counts. */
  queue: Queue;
  /**
   * The environment every spawned worker needs (database, Redis, simulator, prefix, a 3 s shutdown
   * timeout, a sync start two days before now); `extra` adds or overrides.
   */
  env: (extra?: Record<string, string>) => Record<string, string>;
  /**
   * The world's scopes with every stream on demand (`streams` adds per-stream settings): a worker runs
   * only jobs for scopes it is configured for, and with no cadence registers no scheduler, so the
   * jobs a test adds are the only ones.
   */
  onDemand: (streams?: Record<string, Record<string, unknown>>) => Record<string, string>;
  /** Spawns a worker process that `close()` kills if the test did not stop it. */
  spawn: (env: Record<string, string>) => WorkerProcess;
  /** Kills left-over workers, closes the queue, simulator and database, and deletes the Redis keys. */
  close: () => Promise<void>;
}

/**
 * Starts a test database, a manual-clock simulator and the sync queue under a unique prefix. The
 * worker's engine reads up to the real now, so the simulated world starts at the current minute and
 * never moves (the clock is manual), so the truth cannot change under the workers.
 */
export async function startWorkerHarness(
  label: string,
  simulator: { seed: number; historyDays: number; rates?: Partial<Rates> },
): Promise<WorkerHarness> {
  const redisUrl = inject('redisUrl');
  const prefix = uniquePrefix(label);
  const children: WorkerProcess[] = [];
  const t = await createTestDatabase();
  let sim: RunningSimulator | undefined;
  let redis: Redis | undefined;
  let queue: Queue | undefined;
  const close = async () => {
    for (const c of children) c.child.kill('SIGKILL');
    await queue?.close();
    redis?.disconnect();
    await sim?.close();
    await t.close();
    await deletePrefix(redisUrl, prefix);
  };
  try {
    sim = await startSimulator({
      seed: simulator.seed,
      clock: 'manual',
      start: new Date(Math.floor(Date.now() / 60_000) * 60_000),
      volume: { historyDays: simulator.historyDays, rates: simulator.rates },
    });
    redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    // The spawned workers' queue: under this database's deployment identity (deployment.ts).
    queue = new Queue(QUEUE_NAMES.sync, {
      connection: redis,
      prefix: deploymentPrefix(prefix, await readDeploymentTag(t.pool)),
    });
  } catch (error) {
    await close();
    throw error;
  }
  const upstream = sim;
  return {
    t,
    sim: upstream,
    queue,
    env: (extra = {}) => ({
      DATABASE_URL: t.url,
      REDIS_URL: redisUrl,
      FULFILLMENT_API_URL: upstream.url,
      FULFILLMENT_API_TOKEN: SIMULATOR_TOKEN,
      FULFILLMENT_SYNC_START: new Date(Date.now() - 2 * 86_400_000).toISOString(),
      FULFILLMENT_QUEUE_PREFIX: prefix,
      WORKER_SHUTDOWN_TIMEOUT_MS: '3000',
      ...QUICK_CONFIRMATIONS,
      ...extra,
    }),
    onDemand: (streams = {}) => ({
      FULFILLMENT_SUPPLIER_IDS: upstream.world.suppliers.map((s) => s.id).join(','),
      FULFILLMENT_ACCOUNT_NUMBERS: upstream.world.accounts.map((a) => a.number).join(','),
      FULFILLMENT_STREAMS: JSON.stringify(
        Object.fromEntries(STREAM_NAMES.map((name) => [name, { cadenceMinutes: 0, ...streams[name] }])),
      ),
    }),
    spawn: (env) => {
      const child = spawnWorker(env);
      children.push(child);
      return child;
    },
    close,
  };
}
