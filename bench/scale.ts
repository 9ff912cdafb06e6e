/**
 * `npm run bench:scale`: a simulated world of 100 suppliers and 100 accounts synced by three real
 * worker processes on one Redis (one shared rate limit), at 100 scopes and then at 10, each in a
 * fresh database under its own Redis prefix. Reports, measured in the same run: the first load
 * (wall time, calls at the simulator and in sync.runs, rows/s), one steady-state cycle of every
 * stream after the world has moved by that stream's cadence (calls, time at 10 requests/s),
 * Postgres and Redis memory, and whether each stream's cycle at 100 scopes fits its cadence at
 * 10 requests/s; and the polling plan the worker derives at the default settings for the largest
 * size (interval, freshness reached and calls per stream, the total against the budget share),
 * next to the calls per scope the measured cycles made. Prints a table and writes
 * bench/scale-results.json. Asserts nothing about timing. `-- --plan-only` prints the plan alone.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { StreamName } from '../src/config/types.ts';
import { PACKAGE_ROOT } from '../src/runtime/packageRoot.ts';
import { STREAM_SCOPE_KIND } from '../src/worker/streamScopes.ts';
import { burstWhenAllDue, busiestWindow, cadenceFit, type Fit, round, sentRps } from './scale/figures.ts';
import { defaultPlan, planFigures, printPlan } from './scale/pollPlanFigures.ts';
import { startSimulatorChild } from './scale/simulatorChild.ts';
import { runSize, type SizeFigures } from './scale/sizeRun.ts';

const SEED = 42;
/** 10:00 in Los Angeles on a Tuesday, far from DST changes, so every cycle but the daily one stays in one day. */
const WORLD_START = new Date('2026-05-12T17:00:00Z');
const HISTORY_DAYS = 14;
/** `-- --sizes 10,2 --suppliers 10` makes a quick trial run; the figures of record use the defaults. */
const SIZES = listArg('sizes', [100, 10]);
const SUPPLIERS = listArg('suppliers', [100])[0] as number;
/** The first load runs this fast (CPU-bound on a small machine); its calls give its time at 10/s. */
const FIRST_LOAD_RPS = 1000;
const STEADY_RPS = 10;
/** The row cap of one answer at the simulator: the worker's default (FULFILLMENT_MAX_ROWS_PER_WINDOW). */
const ROW_CAP = 5000;

const serverUrl = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const log = (line: string) => process.stderr.write(`${line}\n`);

async function main(): Promise<void> {
  if (process.argv.includes('--plan-only')) {
    // The quick form: the derived polling plan alone (pure, no world, no workers).
    printPlan(planFigures(defaultPlan(SIZES[0] as number)));
    return;
  }
  const started = performance.now();
  log(`building a world of ${SUPPLIERS} suppliers and accounts, ${HISTORY_DAYS} days of history...`);
  const sim = await startSimulatorChild({
    seed: SEED,
    start: WORLD_START,
    volume: { suppliers: SUPPLIERS, historyDays: HISTORY_DAYS },
    rowCap: ROW_CAP,
  });
  log(`  built in ${round(sim.buildMs / 1000, 1)} s`);
  const sizes: SizeFigures[] = [];
  // The largest size's scopes, whose schedulers' phases the busiest-window figure needs.
  const largestScopes = {
    account: sim.accounts.slice(0, SIZES[0]),
    supplier: sim.suppliers.slice(0, SIZES[0]),
  };
  try {
    for (const scopes of SIZES) {
      sizes.push(
        await runSize({
          sim,
          scopes,
          serverUrl,
          redisUrl,
          firstLoadRps: FIRST_LOAD_RPS,
          steadyRps: STEADY_RPS,
          historyDays: HISTORY_DAYS,
          log,
        }),
      );
    }
  } finally {
    await sim.close();
  }
  const largest = sizes[0] as SizeFigures;
  const fits = largest.steady.cycles.map((c) => cadenceFit(c.stream, c.cadenceMinutes, c.calls, c.seconds));
  const orderDetails = orderDetailFit(largest);
  const cycleCalls = largest.steady.cycles.map((c) => ({
    stream: c.stream as StreamName,
    scopes: largestScopes[STREAM_SCOPE_KIND[c.stream as StreamName]],
    cadenceMinutes: c.cadenceMinutes,
    calls: c.calls,
    orderDetailCalls: c.orderDetails?.calls ?? 0,
  }));
  const results = {
    seed: SEED,
    worldStart: WORLD_START.toISOString(),
    historyDays: HISTORY_DAYS,
    workers: 3,
    firstLoadRps: FIRST_LOAD_RPS,
    steadyRps: STEADY_RPS,
    steadySentRps: round(sentRps(STEADY_RPS), 2),
    sizes,
    fitsAt10RpsWith100Scopes: {
      streams: fits,
      orderDetails,
      demand: demand(fits, orderDetails),
      allDueTogether: burstWhenAllDue(cycleCalls, STEADY_RPS),
      busiestWindow: busiestWindow(cycleCalls, STEADY_RPS),
    },
    pollingPlan: planFigures(defaultPlan(largest.scopes.accounts), measuredCallsPerScope(largest)),
    benchWallSeconds: round((performance.now() - started) / 1000, 1),
    node: process.version,
    cpus: availableParallelism(),
    measuredAt: new Date().toISOString(),
  };
  const out = path.join(PACKAGE_ROOT, 'bench', 'scale-results.json');
  writeFileSync(out, `${JSON.stringify(results, null, 2)}\n`);
  printTables(results.sizes, fits, orderDetails, results.fitsAt10RpsWith100Scopes);
  printPlan(results.pollingPlan);
  log(`bench:scale took ${results.benchWallSeconds} s (after the build)`);
}

/**
 * Order details, counted apart: one call per order that the cycle's shipments (5 minutes of change)
 * and returns (15 minutes) named, per second of world time, against their own budget and the shared one.
 */
function orderDetailFit(size: SizeFigures) {
  const perSecond = size.steady.cycles.reduce(
    (rps, c) => rps + (c.orderDetails ? c.orderDetails.calls / (c.cadenceMinutes * 60) : 0),
    0,
  );
  return {
    callsPerCycle: Object.fromEntries(
      size.steady.cycles.filter((c) => c.orderDetails).map((c) => [c.stream, c.orderDetails?.calls ?? 0]),
    ),
    callsPerSecond: round(perSecond, 3),
    budgetRps: size.steady.orderDetailRps,
    fits: perSecond <= sentRps(size.steady.orderDetailRps),
  };
}

/** Calls per scope of each stream's measured steady cycle (order details apart), for the plan's estimate. */
function measuredCallsPerScope(size: SizeFigures): Record<string, number> {
  return Object.fromEntries(
    size.steady.cycles.map((c) => {
      const kind = STREAM_SCOPE_KIND[c.stream as StreamName];
      const scopes = kind === 'account' ? size.scopes.accounts : size.scopes.suppliers;
      return [c.stream, round(c.calls / scopes, 2)];
    }),
  );
}

/** What the whole deployment asks of the shared budget in steady state, every stream together. */
function demand(fits: Fit[], orderDetails: { callsPerSecond: number }) {
  const rps = fits.reduce((n, f) => n + f.calls / (f.cadenceMinutes * 60), 0) + orderDetails.callsPerSecond;
  return { callsPerSecond: round(rps, 3), shareOf10Rps: round(rps / sentRps(STEADY_RPS), 3) };
}

function printTables(
  sizes: SizeFigures[],
  fits: Fit[],
  orderDetails: ReturnType<typeof orderDetailFit>,
  {
    demand: total,
    allDueTogether: burst,
    busiestWindow: busiest,
  }: {
    demand: ReturnType<typeof demand>;
    allDueTogether: ReturnType<typeof burstWhenAllDue>;
    busiestWindow: ReturnType<typeof busiestWindow>;
  },
): void {
  const bySize = (pick: (s: SizeFigures) => unknown) =>
    Object.fromEntries(sizes.map((s) => [`${s.scopes.accounts} scopes`, pick(s)]));
  console.log('\nFirst load');
  console.table({
    'wall time (s)': bySize((s) => s.firstLoad.wallSeconds),
    'rate limit (req/s)': bySize((s) => s.firstLoad.rateLimitRps),
    'calls (sync.runs)': bySize((s) => s.firstLoad.calls),
    'calls (simulator)': bySize((s) => s.firstLoad.simCalls.total),
    'of which order details': bySize((s) => s.firstLoad.orderDetailCalls),
    'time at 10 req/s (s)': bySize((s) => s.firstLoad.secondsAtSteadyRps),
    'rows stored': bySize((s) => s.firstLoad.rowsStored),
    'rows/s': bySize((s) => s.firstLoad.rowsPerSecond),
  });
  console.log('\nSteady-state cycle at 10 req/s (calls; seconds)');
  const rows: Record<string, Record<string, unknown>> = {};
  const row = (name: string, cadence: string) => {
    rows[name] ??= { cadence };
    return rows[name];
  };
  for (const size of sizes) {
    for (const c of size.steady.cycles) {
      const own = row(c.stream, `${c.cadenceMinutes} min`);
      own[`calls @${size.scopes.accounts}`] = c.calls;
      own[`s @${size.scopes.accounts}`] = c.seconds;
      if (c.orderDetails) {
        const od = row(`  order details after ${c.stream}`, '');
        od[`calls @${size.scopes.accounts}`] = c.orderDetails.calls;
        od[`s @${size.scopes.accounts}`] = c.orderDetails.seconds;
      }
    }
  }
  console.table(rows);
  console.log('\nMemory after the cycles');
  console.table({
    'Postgres database (MiB)': bySize((s) => mib(s.postgres.databaseBytes)),
    'Redis used_memory (MiB)': bySize((s) => mib(s.redis.usedMemoryAfter)),
    'Redis, this prefix (MiB)': bySize((s) => mib(s.redis.prefixBytes)),
    'Redis, this prefix (keys)': bySize((s) => s.redis.prefixKeys),
  });
  console.log(
    `\nAt ${sizes[0]?.scopes.accounts} scopes and 10 req/s: does each stream's cycle fit its cadence?`,
  );
  console.table(
    Object.fromEntries(
      fits.map((f) => [
        f.stream,
        {
          cadence: `${f.cadenceMinutes} min`,
          calls: f.calls,
          'cycle (s)': f.cycleSeconds,
          fits: f.fits ? 'yes' : 'no',
          'needs (req/s)': f.neededRps,
        },
      ]),
    ),
  );
  console.log(
    `order details: ${orderDetails.callsPerSecond} calls/s (budget ${orderDetails.budgetRps}/s); every stream together: ${total.callsPerSecond} calls/s, ${Math.round(total.shareOf10Rps * 100)}% of 10 req/s`,
  );
  console.log(
    `busiest ${busiest.windowSeconds / 60}-minute window of a day, each scheduler at its phase: ${busiest.calls} calls, ${busiest.seconds} s at 10 req/s` +
      ` (were every cycle due at once: ${burst.calls} calls, ${burst.seconds} s)`,
  );
}

function listArg(name: string, fallback: number[]): number[] {
  const i = process.argv.indexOf(`--${name}`);
  if (i < 0) return fallback;
  const values = String(process.argv[i + 1])
    .split(',')
    .map(Number);
  if (values.some((v) => !Number.isInteger(v) || v <= 0)) {
    console.error(`--${name} needs positive whole numbers, e.g. --${name} 10,2`);
    process.exit(2);
  }
  return values;
}

function mib(bytes: number): number {
  return round(bytes / 1048576, 1);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
