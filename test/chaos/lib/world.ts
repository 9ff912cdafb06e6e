import pg from 'pg';
import { STREAM_NAMES } from '../../../src/config/types.ts';
import type { Rates } from '../../../src/simulator/evolve/rates.ts';
import { type RunningSimulator, startSimulator } from '../../../src/simulator/index.ts';
import { deploymentPrefix, readDeploymentTag } from '../../../src/worker/deployment.ts';
import { SIMULATOR_TOKEN } from '../../helpers/syncHarness.ts';
import { type WarehouseTruthOptions, warehouseMismatches } from '../../helpers/warehouseTruth.ts';
import { spawnWorker, type WorkerProcess } from '../../worker/spawnWorker.ts';
import type { ChaosContext } from '../scenario.ts';

/**
 * One simulated upstream, one database and one Redis prefix on the chaos services, and the
 * environment a worker or CLI needs to sync the one into the other. Everything it starts is
 * stopped when the scenario ends.
 */
export interface ChaosWorld {
  sim: RunningSimulator;
  databaseUrl: string;
  pool: pg.Pool;
  prefix: string;
  /** Where the world's workers keep their queues: `prefix` and the database's identity (deployment.ts). */
  queuePrefix: string;
  /** The environment of a worker or CLI process of this world, plus `extra`. */
  env(extra?: Record<string, string>): Record<string, string>;
  /** Spawns `fulfillment-sync worker` (killed with SIGKILL at the end if still running). */
  spawnWorker(env: Record<string, string>): WorkerProcess;
  /** Where the warehouse differs from the simulator's truth (empty when equal). */
  mismatches(options?: WarehouseTruthOptions): Promise<string[]>;
  /** The first column of the first row of `sql`, as a number. */
  count(sql: string, params?: unknown[]): Promise<number>;
}

export interface WorldOptions {
  seed: number;
  historyDays: number;
  rates?: Partial<Rates>;
  /**
   * How many minutes before the real now the world starts (default 0): a worker reads up to the
   * real now, so a world that starts behind can move its clock on and stay in the past.
   */
  lagMinutes?: number;
}

export async function startWorld(
  ctx: ChaosContext,
  label: string,
  options: WorldOptions,
): Promise<ChaosWorld> {
  const databaseUrl = await ctx.newDatabase(label);
  const prefix = ctx.prefix(label);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
  // A chaos scenario restarts Postgres under this pool: a dropped idle client is expected.
  pool.on('error', () => {});
  ctx.defer(() => pool.end());
  const sim = await startSimulator({
    seed: options.seed,
    clock: 'manual',
    start: new Date((Math.floor(Date.now() / 60_000) - (options.lagMinutes ?? 0)) * 60_000),
    volume: { historyDays: options.historyDays, rates: options.rates },
  });
  ctx.defer(() => sim.close());
  const workers: WorkerProcess[] = [];
  ctx.defer(async () => {
    for (const w of workers)
      if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
    await Promise.all(workers.map((w) => w.exited));
  });
  const world = sim.truth();
  const queuePrefix = deploymentPrefix(prefix, await readDeploymentTag(pool));
  return {
    sim,
    databaseUrl,
    pool,
    prefix,
    queuePrefix,
    env: (extra = {}) => ({
      DATABASE_URL: databaseUrl,
      REDIS_URL: ctx.services.redisUrl,
      FULFILLMENT_API_URL: sim.url,
      FULFILLMENT_API_TOKEN: SIMULATOR_TOKEN,
      FULFILLMENT_SYNC_START: new Date(sim.clock.now() - options.historyDays * 86_400_000).toISOString(),
      FULFILLMENT_QUEUE_PREFIX: prefix,
      FULFILLMENT_SUPPLIER_IDS: world.suppliers.join(','),
      FULFILLMENT_ACCOUNT_NUMBERS: world.accounts.join(','),
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      WORKER_SHUTDOWN_TIMEOUT_MS: '3000',
      ...extra,
    }),
    spawnWorker: (env) => {
      const worker = spawnWorker(env);
      workers.push(worker);
      return worker;
    },
    mismatches: (opts) => warehouseMismatches(pool, sim.truth(), opts),
    count: async (sql, params = []) =>
      Number(Object.values((await pool.query(sql, params)).rows[0] ?? {})[0]),
  };
}

/** FULFILLMENT_STREAMS with every stream due every minute (orders stay on demand), so a worker picks up changes soon. */
export function everyStreamEveryMinute(): string {
  return JSON.stringify(
    Object.fromEntries(STREAM_NAMES.filter((s) => s !== 'orders').map((s) => [s, { cadenceMinutes: 1 }])),
  );
}
