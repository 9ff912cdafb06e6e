/**
 * One size of the scale benchmark: a fresh deployment (database, Redis prefix) synced by three real
 * worker processes from the shared simulator, for the first `scopes` accounts and suppliers. First
 * the first load (at a high rate limit, so it ends in minutes), then, at the steady rate limit, one
 * cycle of every stream after the world has moved by that stream's cadence.
 */
import { loadConfig } from '../../src/config/loadConfig.ts';
import { STREAM_DEFAULTS } from '../../src/config/streamDefaults.ts';
import type { StreamName } from '../../src/config/types.ts';
import { SANDBOX_TOKEN } from '../../src/runtime/upstream.ts';
import { STREAM_SCOPE_KIND } from '../../src/worker/streamScopes.ts';
import { createDeployment, type Deployment, redisUsedMemory } from './deployment.ts';
import { enqueueSyncRuns, waitUntilDrained } from './drain.ts';
import { cyclePhases, round, secondsAt } from './figures.ts';
import { loadedPairs, runMark, runsSince, type StreamRuns } from './runLog.ts';
import { type SimCalls, simCallsBetween } from './simCalls.ts';
import type { SimulatorChild } from './simulatorChild.ts';
import { startWorkers, type WorkerComplaint, type WorkerSet } from './workers.ts';

const DAY = 86_400_000;
const WORKERS = 3;
/** The order-detail budget the steady phase runs with: the default (FULFILLMENT_ORDER_DETAIL_RPS). */
const ORDER_DETAIL_RPS = loadConfig({}).api.orderDetailRps;
/**
 * The benchmark's workers run every stream on demand only (cadence 0: no job schedulers). It asks
 * for the first load as registering a new scheduler does (one run per stream and scope, now), and
 * for each stream's steady-state cycle exactly when the world has moved by the stream's real
 * cadence (STREAM_DEFAULTS), with the same job. Real schedulers would run at their phases
 * (src/worker/schedulePhase.ts), anywhere in their period, in the middle of a measured cycle.
 */
const ON_DEMAND = 0;

export interface SizeOptions {
  sim: SimulatorChild;
  scopes: number;
  serverUrl: string;
  redisUrl: string;
  firstLoadRps: number;
  steadyRps: number;
  /** Days before the world's now that the first load starts reading (FULFILLMENT_SYNC_START). */
  historyDays: number;
  log: (line: string) => void;
}

/** One stream's steady-state cycle. */
export interface CycleFigures {
  stream: string;
  cadenceMinutes: number;
  scopes: number;
  /** api_calls in sync.runs; `simCalls` is the simulator's own count of the same calls. */
  calls: number;
  simCalls: number;
  callsByOperation: Record<string, number>;
  /** From enqueueing one job per scope to the last one stored. */
  seconds: number;
  fetched: number;
  rowsWritten: number;
  failedWindows: number;
  /** Order details the cycle's changes named (shipments, returns), fetched by the orders stream. */
  orderDetails?: { calls: number; simCalls: number; seconds: number; orders: number; retriggered: number };
}

export interface SizeFigures {
  scopes: { accounts: number; suppliers: number };
  schedulers: number;
  firstLoad: {
    rateLimitRps: number;
    wallSeconds: number;
    workerStartSeconds: number;
    calls: number;
    simCalls: SimCalls;
    callsByStream: Record<string, number>;
    orderDetailCalls: number;
    /** Orders in the warehouse after the first load: fewer than the detail calls means some were fetched twice. */
    ordersStored: number;
    achievedCallsPerSecond: number;
    /** At the steady rate: all calls paced by the shared budget, order details by theirs. */
    secondsAtSteadyRps: number;
    recordsFetched: number;
    rowsStored: number;
    rowsPerSecond: number;
    ordersRetriggered: number;
    databaseBytes: number;
  };
  steady: {
    rateLimitRps: number;
    orderDetailRps: number;
    cycles: CycleFigures[];
    /** Every stream's cycle plus the order details they named. */
    totalCalls: number;
    totalSeconds: number;
    worldMinutesAdvanced: number;
    worldAdvanceMs: number;
  };
  postgres: {
    databaseBytesAfterFirstLoad: number;
    databaseBytes: number;
    largestTables: Record<string, number>;
  };
  redis: {
    usedMemoryBefore: number;
    usedMemoryAfter: number;
    prefixKeys: number;
    prefixBytes: number;
  };
  workers: { complaints: number; sample: WorkerComplaint[]; exitCodes: (number | null)[] };
}

/** Runs one size; the deployment is dropped and its Redis keys deleted whatever happens. */
export async function runSize(o: SizeOptions): Promise<SizeFigures> {
  const accounts = o.sim.accounts.slice(0, o.scopes);
  const suppliers = o.sim.suppliers.slice(0, o.scopes);
  if (accounts.length < o.scopes || suppliers.length < o.scopes)
    throw new Error(
      `the world has ${o.sim.accounts.length} accounts and ${o.sim.suppliers.length} suppliers`,
    );
  const scopesOf = (stream: string) =>
    STREAM_SCOPE_KIND[stream as StreamName] === 'account' ? accounts : suppliers;
  const phases = cyclePhases(STREAM_DEFAULTS);
  const schedulers = phases.flatMap((p) => p.streams).reduce((n, s) => n + scopesOf(s).length, 0);

  const dep = await createDeployment(String(o.scopes), o.serverUrl, o.redisUrl);
  let workers: WorkerSet | undefined;
  const complaints: WorkerComplaint[] = [];
  const exitCodes: (number | null)[] = [];
  const stopWorkers = async () => {
    if (!workers) return;
    const set = workers;
    workers = undefined;
    exitCodes.push(...(await set.stop()));
    complaints.push(...set.complaints);
  };
  try {
    const usedMemoryBefore = await redisUsedMemory(dep.redis);
    const worldStart = o.sim.now();
    // The workers' wall clock is the real one shifted by `offset` (virtualClock.ts).
    let offset = worldStart - Date.now();
    const now = () => new Date(Date.now() + offset);
    const env: Record<string, string> = {
      DATABASE_URL: dep.databaseUrl,
      REDIS_URL: dep.redisUrl,
      FULFILLMENT_API_URL: o.sim.url,
      FULFILLMENT_API_TOKEN: SANDBOX_TOKEN,
      FULFILLMENT_ACCOUNT_NUMBERS: accounts.join(','),
      FULFILLMENT_SUPPLIER_IDS: suppliers.join(','),
      // The world begins historyDays before its now: a first load reads all of it, nothing before.
      FULFILLMENT_SYNC_START: new Date(worldStart - o.historyDays * DAY).toISOString(),
      FULFILLMENT_QUEUE_PREFIX: dep.prefix,
      FULFILLMENT_STREAMS: JSON.stringify(
        Object.fromEntries(phases.flatMap((p) => p.streams).map((s) => [s, { cadenceMinutes: ON_DEMAND }])),
      ),
      WORKER_SHUTDOWN_TIMEOUT_MS: '15000',
    };

    // 1. First load: one run per stream and scope, as a new scheduler's registration asks for.
    o.log(`${o.scopes} scopes: first load (${WORKERS} workers, ${o.firstLoadRps} requests/s)`);
    const loadMark = await runMark(dep.pool);
    const loadSimBefore = await o.sim.counts();
    const loadStarted = performance.now();
    workers = await startWorkers(
      WORKERS,
      {
        ...env,
        FULFILLMENT_RATE_LIMIT_RPS: String(o.firstLoadRps),
        FULFILLMENT_ORDER_DETAIL_RPS: String(o.firstLoadRps),
      },
      offset,
    );
    const workerStartSeconds = workers.startMs / 1000;
    await enqueueSyncRuns(
      dep.queue,
      phases.flatMap((p) =>
        p.streams.flatMap((stream) =>
          scopesOf(stream).map((scope) => ({ stream: stream as StreamName, scope })),
        ),
      ),
    );
    const { ordersRetriggered } = await waitUntilDrained({
      queue: dep.queue,
      pool: dep.pool,
      now,
      done: async () => (await loadedPairs(dep.pool)) >= schedulers,
      timeoutMs: 30 * 60_000,
      onProgress: async () => {
        const c = simCallsBetween(loadSimBefore, await o.sim.counts());
        o.log(`  ... ${c.total} calls, ${Math.round((performance.now() - loadStarted) / 1000)} s`);
      },
    });
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    const loadSim = simCallsBetween(loadSimBefore, await o.sim.counts());
    const loadRuns = await runsSince(dep.pool, loadMark);
    const rowsStored = await dep.warehouseRows();
    const databaseBytesAfterFirstLoad = await dep.databaseBytes();
    const loadCalls = sum([...loadRuns.values()].map((r) => r.calls));
    const orderDetailCalls = loadRuns.get('orders')?.calls ?? 0;
    const ordersStored = Number(
      (await dep.pool.query('SELECT count(*) AS n FROM fulfillment.orders')).rows[0].n,
    );
    o.log(
      `  done in ${round(loadSeconds, 1)} s: ${loadCalls} calls (simulator ${loadSim.total}), ${rowsStored} rows`,
    );
    await stopWorkers();

    // 2. Steady state at the steady rate: after each cadence, one cycle of the streams that have it.
    workers = await startWorkers(
      WORKERS,
      {
        ...env,
        FULFILLMENT_RATE_LIMIT_RPS: String(o.steadyRps),
        FULFILLMENT_ORDER_DETAIL_RPS: String(ORDER_DETAIL_RPS),
      },
      offset,
    );
    const cycles: CycleFigures[] = [];
    let worldAdvanceMs = 0;
    for (const phase of phases) {
      const advanced = await o.sim.advance(
        (worldStart + phase.cadenceMinutes * 60_000 - o.sim.now()) / 60_000,
      );
      worldAdvanceMs += advanced.ms;
      // The workers read up to the world's now (never back: their cursors hold what they have seen).
      offset = Math.max(o.sim.now(), Date.now() + offset) - Date.now();
      await workers.setClockOffset(offset);
      for (const stream of phase.streams) {
        const cycle = await runCycle(dep, o.sim, stream, scopesOf(stream), now, offset);
        cycles.push({ ...cycle, cadenceMinutes: phase.cadenceMinutes });
        o.log(
          `  ${stream} (world +${phase.cadenceMinutes} min): ${cycle.calls} calls in ${cycle.seconds} s` +
            (cycle.orderDetails
              ? `; ${cycle.orderDetails.calls} order details in ${cycle.orderDetails.seconds} s`
              : ''),
        );
      }
    }
    const databaseBytes = await dep.databaseBytes();
    const largestTables = await dep.largestTables(6);
    const usedMemoryAfter = await redisUsedMemory(dep.redis);
    const prefix = await dep.prefixMemory();
    await stopWorkers();

    return {
      scopes: { accounts: accounts.length, suppliers: suppliers.length },
      schedulers,
      firstLoad: {
        rateLimitRps: o.firstLoadRps,
        wallSeconds: round(loadSeconds, 1),
        workerStartSeconds: round(workerStartSeconds, 1),
        calls: loadCalls,
        simCalls: loadSim,
        callsByStream: Object.fromEntries([...loadRuns.values()].map((r) => [r.stream, r.calls])),
        orderDetailCalls,
        ordersStored,
        achievedCallsPerSecond: round(loadSim.total / loadSeconds, 1),
        secondsAtSteadyRps: Math.max(
          secondsAt(loadCalls, o.steadyRps),
          secondsAt(orderDetailCalls, ORDER_DETAIL_RPS),
        ),
        recordsFetched: sum([...loadRuns.values()].map((r) => r.fetched)),
        rowsStored,
        rowsPerSecond: Math.round(rowsStored / loadSeconds),
        ordersRetriggered,
        databaseBytes: databaseBytesAfterFirstLoad,
      },
      steady: {
        rateLimitRps: o.steadyRps,
        orderDetailRps: ORDER_DETAIL_RPS,
        cycles,
        totalCalls: sum(cycles.map((c) => c.calls + (c.orderDetails?.calls ?? 0))),
        totalSeconds: round(sum(cycles.map((c) => Math.max(c.seconds, c.orderDetails?.seconds ?? 0))), 1),
        worldMinutesAdvanced: phases.at(-1)?.cadenceMinutes ?? 0,
        worldAdvanceMs,
      },
      postgres: { databaseBytesAfterFirstLoad, databaseBytes, largestTables },
      redis: { usedMemoryBefore, usedMemoryAfter, prefixKeys: prefix.keys, prefixBytes: prefix.bytes },
      workers: { complaints: complaints.length, sample: complaints.slice(0, 10), exitCodes },
    };
  } finally {
    await stopWorkers().catch(() => undefined);
    const problem = await dep.close();
    if (problem) o.log(`WARNING: ${problem}`);
  }
}

/** One cycle of one stream: a job per scope, as its scheduler adds them, then the queue drained. */
async function runCycle(
  dep: Deployment,
  sim: SimulatorChild,
  stream: string,
  scopes: readonly string[],
  now: () => Date,
  offset: number,
): Promise<Omit<CycleFigures, 'cadenceMinutes'>> {
  const mark = await runMark(dep.pool);
  const simBefore = await sim.counts();
  const enqueuedAt = Date.now();
  await enqueueSyncRuns(
    dep.queue,
    scopes.map((scope) => ({ stream: stream as StreamName, scope })),
  );
  const { ordersRetriggered } = await waitUntilDrained({
    queue: dep.queue,
    pool: dep.pool,
    now,
    timeoutMs: 15 * 60_000,
  });
  const runs = await runsSince(dep.pool, mark);
  const simCalls = simCallsBetween(simBefore, await sim.counts());
  const own = runs.get(stream) ?? emptyRuns(stream);
  // Finish times are the workers' (virtual) clock: shifted back by the offset they ran with.
  const secondsTo = (r: StreamRuns) => round((r.lastFinishedAt - offset - enqueuedAt) / 1000, 1);
  const orders = runs.get('orders');
  const ownOperations = Object.fromEntries(
    Object.entries(simCalls.byOperation).filter(([op]) => !op.startsWith('GET Orders/Detail')),
  );
  return {
    stream,
    scopes: own.scopes,
    calls: own.calls,
    simCalls: simCalls.byStream[stream] ?? 0,
    callsByOperation: ownOperations,
    seconds: secondsTo(own),
    fetched: own.fetched,
    rowsWritten: own.inserted + own.updated,
    failedWindows: own.failedWindows,
    ...(orders
      ? {
          orderDetails: {
            calls: orders.calls,
            simCalls: simCalls.byStream.orders ?? 0,
            seconds: secondsTo(orders),
            orders: orders.fetched,
            retriggered: ordersRetriggered,
          },
        }
      : {}),
  };
}

function emptyRuns(stream: string): StreamRuns {
  return {
    stream,
    scopes: 0,
    windows: 0,
    calls: 0,
    fetched: 0,
    inserted: 0,
    updated: 0,
    unchanged: 0,
    rejected: 0,
    failedWindows: 0,
    lastFinishedAt: 0,
  };
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
