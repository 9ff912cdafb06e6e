/**
 * `npm run bench:growth [-- --pairs 100 --days 365 --step-days 7]`: a year of a deployment's
 * bookkeeping (runs at the default cadences, events, deliveries, rejections) written straight into
 * a fresh database step by step, pruned after each step by the real pruner (src/retention/) as its
 * schedule would, with the default retention. Prints and writes bench/growth-results.json: table
 * sizes before and after each prune (flat over the year, or not), rows removed per second, the
 * disk per pair, and the p95 commit time of a sync window with the pruner running beside it against
 * the same without it, measured in the same run. Not a test: it asserts nothing about timing.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { loadConfig } from '../src/config/loadConfig.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { quoteIdent, withDatabase } from '../src/db/urls.ts';
import { REST_PER_BUSY } from '../src/retention/pace.ts';
import { prune } from '../src/retention/prune.ts';
import { PRUNED_TABLES } from '../src/retention/rules.ts';
import { PACKAGE_ROOT } from '../src/runtime/packageRoot.ts';
import { positiveArg } from './args.ts';
import { setUpDeployment, type Volumes, writePeriod } from './growth/generate.ts';
import { commitWindowsUntil, quantile } from './growth/windowCommit.ts';

const pairs = Math.floor(positiveArg('pairs', 100));
const days = Math.floor(positiveArg('days', 365));
const stepDays = Math.floor(positiveArg('step-days', 7));
/** Seconds of window commits without the pruner, before and after each measured prune. */
const baselineSeconds = positiveArg('baseline-seconds', 3);
/** Seconds of pruning measured beside the commits per measured step. */
const measureSeconds = positiveArg('measure-seconds', 60);
const volumes: Volumes = {
  eventsPerDay: positiveArg('events-per-day', 200),
  eventBytes: Math.floor(positiveArg('event-bytes', 1000)),
  endpoints: Math.floor(positiveArg('endpoints', 1)),
  retryShare: positiveArg('retry-share', 0.05),
  rejectionsPerDay: positiveArg('rejections-per-day', 2),
  quarantinesPerDay: positiveArg('quarantines-per-day', 0.2),
  backfillWindowsPerDay: positiveArg('backfill-windows-per-day', 1),
};
const defaults = loadConfig({}).retention;
const settings = {
  ...defaults,
  batchSize: Math.floor(positiveArg('batch-size', defaults.batchSize)),
  batchPauseMs: process.argv.includes('--pause-ms')
    ? Math.floor(Number(process.argv[process.argv.indexOf('--pause-ms') + 1]))
    : defaults.batchPauseMs,
};
/** The pruner's rest per unit of its work between batches (src/retention/pace.ts); 0: the pause alone. */
const restPerBusy = process.argv.includes('--rest-per-busy')
  ? Number(process.argv[process.argv.indexOf('--rest-per-busy') + 1])
  : REST_PER_BUSY;
/** A second pace measured in slices of its own beside the first (e.g. 0: the fixed pause alone). */
const compareRestPerBusy = process.argv.includes('--compare-rest-per-busy')
  ? Number(process.argv[process.argv.indexOf('--compare-rest-per-busy') + 1])
  : undefined;
/** Where the results go, under bench/ (a second run beside the committed one writes elsewhere). */
const resultsFile = process.argv.includes('--out')
  ? path.basename(String(process.argv[process.argv.indexOf('--out') + 1]))
  : 'growth-results.json';
const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const DAY = 86_400_000;
const MiB = 1024 * 1024;
const start = new Date('2026-01-01T00:00:00Z');
const steps = Math.ceil(days / stepDays);
// Prunes measured against the window commits: a third, two thirds into the year, and the last,
// all past the 90 days after which every rule has rows to remove.
const measured = new Set([Math.floor(steps / 3), Math.floor((2 * steps) / 3), steps - 1]);
/**
 * `--resume-database NAME --resume-day D`: carries on a run stopped after day D (its database kept,
 * e.g. a run killed for time), measuring the window commits at every step from there, and keeps
 * the database at the end. For more measurements at a steady state without a year's generation.
 */
const resumeDatabase = process.argv.includes('--resume-database')
  ? String(process.argv[process.argv.indexOf('--resume-database') + 1])
  : undefined;
const firstStep = resumeDatabase ? Math.floor(positiveArg('resume-day', 1) / stepDays) : 0;

const TABLES = [...PRUNED_TABLES];

async function tableSizes(pool: pg.Pool): Promise<Record<string, number>> {
  const { rows } = await pool.query<{ t: string; bytes: string }>(
    `SELECT t, pg_total_relation_size(t::regclass) AS bytes FROM unnest($1::text[]) t`,
    [[...TABLES, 'fulfillment.inventory_history']],
  );
  return Object.fromEntries(rows.map((r) => [r.t, Number(r.bytes)]));
}

async function rowCounts(pool: pg.Pool): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const t of TABLES) out[t] = Number((await pool.query(`SELECT count(*) AS n FROM ${t}`)).rows[0].n);
  return out;
}

const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);
const mib = (bytes: number) => Math.round((bytes / MiB) * 10) / 10;

interface StepResult {
  day: number;
  written: Record<string, number>;
  /** Seconds of the step's parts: generation (per table, two sessions at once), prune, vacuum. */
  seconds: { write: number; writePerTable: Record<string, number>; prune: number; vacuum: number };
  bytesBefore: Record<string, number>;
  bytesAfter: Record<string, number>;
  rowsAfter: Record<string, number>;
  removed: Record<string, number>;
  /** The step's prune (what the measured slices left) at full speed: rows and seconds. */
  fullSpeed: { removed: number; seconds: number };
  commits?: {
    withoutP95Ms: number;
    withP95Ms: number;
    without: number;
    with: number;
    ratio: number;
    prunedRowsPerSecond: number;
    /** The same measured at another pace (--compare-rest-per-busy), in slices between them. */
    compared?: Array<{
      restPerBusy: number;
      withP95Ms: number;
      with: number;
      ratio: number;
      prunedRowsPerSecond: number;
    }>;
  };
}

/** The scope of the measuring window commits (a cursor of its own, outside the simulated pairs). */
const BENCH_SCOPE = 'BENCH';

/**
 * Window commits with and without the pruner, in alternating slices of `baselineSeconds` (so that
 * load from elsewhere on the machine falls on all alike): commits alone, then commits while the
 * pruner runs with the deployment's settings (stopped at the slice's end, resumed in the next), and
 * with `--compare-rest-per-busy` a third slice with the pruner at that pace, until it is done or
 * `measureSeconds` of pruning have been measured. The rest is pruned unmeasured.
 */
async function measureAround(pool: pg.Pool, now: Date) {
  const sliceMs = baselineSeconds * 1000;
  const timed = (ms: number) => {
    const until = performance.now() + ms;
    return commitWindowsUntil(pool, BENCH_SCOPE, () => performance.now() >= until);
  };
  const paces = [restPerBusy, ...(compareRestPerBusy === undefined ? [] : [compareRestPerBusy])];
  const without: number[] = [];
  const during = paces.map(() => ({ times: [] as number[], removed: 0, ms: 0 }));
  const removed: Record<string, number> = {};
  let measuredMs = 0;
  let finished = false;
  while (!finished && measuredMs < measureSeconds * 1000) {
    without.push(...(await timed(sliceMs)));
    for (const [i, pace] of paces.entries()) {
      if (finished) break;
      const slice = during[i] as (typeof during)[number];
      const sliceStart = performance.now();
      let done = false;
      const pruning = prune(pool, settings, {
        now,
        restPerBusy: pace,
        shouldStop: () => performance.now() - sliceStart >= sliceMs,
      }).finally(() => {
        done = true;
      });
      slice.times.push(...(await commitWindowsUntil(pool, BENCH_SCOPE, () => done)));
      const outcome = await pruning;
      const ms = performance.now() - sliceStart;
      measuredMs += ms;
      slice.ms += ms;
      if (outcome.kind !== 'pruned') throw new Error('another pruner held the lock');
      for (const t of outcome.report.tables) {
        removed[t.table] = (removed[t.table] ?? 0) + t.removed;
        slice.removed += t.removed;
      }
      finished = outcome.report.interrupted === undefined;
    }
  }
  without.push(...(await timed(sliceMs)));
  // What the measuring commits wrote is no part of the simulated deployment's sizes.
  await pool.query(`DELETE FROM sync.events WHERE scope = $1`, [BENCH_SCOPE]);
  await pool.query(`DELETE FROM sync.runs WHERE scope = $1`, [BENCH_SCOPE]);
  const withoutP95Ms = quantile(without, 0.95);
  const figures = during.map((slice, i) => {
    const withP95Ms = quantile(slice.times, 0.95);
    return {
      restPerBusy: paces[i] as number,
      withP95Ms: Math.round(withP95Ms * 100) / 100,
      with: slice.times.length,
      ratio: Math.round((withP95Ms / withoutP95Ms) * 1000) / 1000,
      /** The pruner's pace with the deployment's batch size and pause, beside the commits. */
      prunedRowsPerSecond: Math.round(slice.removed / Math.max(0.001, slice.ms / 1000)),
    };
  });
  const [main, ...compared] = figures as [(typeof figures)[number], ...typeof figures];
  return {
    removed,
    commits: {
      withoutP95Ms: Math.round(withoutP95Ms * 100) / 100,
      withP95Ms: main.withP95Ms,
      without: without.length,
      with: main.with,
      ratio: main.ratio,
      prunedRowsPerSecond: main.prunedRowsPerSecond,
      ...(compared.length > 0 ? { compared } : {}),
    },
  };
}

function writeResults(summary: Record<string, unknown>, steps: readonly StepResult[]): void {
  writeFileSync(
    path.join(PACKAGE_ROOT, 'bench', resultsFile),
    `${JSON.stringify({ summary, steps }, null, 2)}\n`,
  );
}

function measuredCommitsRate(commits: ReadonlyArray<{ prunedRowsPerSecond: number }>): number {
  return commits.reduce((a, c) => a + c.prunedRowsPerSecond, 0) / Math.max(1, commits.length);
}

async function main(): Promise<void> {
  const name = resumeDatabase ?? `fs_growth_${randomBytes(3).toString('hex')}`;
  const url = withDatabase(serverUrl, name);
  if (!resumeDatabase) await runMigrations(url);
  const pool = new pg.Pool({ connectionString: url, max: 4, application_name: 'bench growth' });
  const began = performance.now();
  try {
    let runsPerDay: number;
    if (resumeDatabase) {
      const { rows } = await pool.query<{ n: string }>(
        `SELECT sum(1440.0 / cadence_minutes) / $1 AS n FROM public.bench_keys`,
        [pairs],
      );
      runsPerDay = Number(rows[0]?.n);
    } else {
      runsPerDay = await setUpDeployment(pool, pairs, volumes.endpoints);
      await pool.query(`INSERT INTO sync.cursors (stream, scope) VALUES ('shipments', $1)`, [BENCH_SCOPE]);
    }
    console.log(
      `${pairs} pairs, ${days} days in steps of ${stepDays}: ${runsPerDay.toFixed(0)} runs per pair per day, ` +
        `${volumes.eventsPerDay} events of ${volumes.eventBytes} bytes, ${volumes.endpoints} endpoint(s); database ${name}`,
    );
    const results: StepResult[] = [];
    let growthPerDay: number | undefined;
    for (let step = firstStep; step < steps; step++) {
      const from = new Date(start.getTime() + step * stepDays * DAY);
      const to = new Date(
        Math.min(start.getTime() + (step + 1) * stepDays * DAY, start.getTime() + days * DAY),
      );
      const writeStarted = performance.now();
      const { rows: written, seconds: writePerTable } = await writePeriod(pool, from, to, pairs, volumes);
      delete written['sync.cursors (updated)'];
      const writeSeconds = (performance.now() - writeStarted) / 1000;
      const bytesBefore = await tableSizes(pool);
      const day = (to.getTime() - start.getTime()) / DAY;
      // Nothing is old enough to prune in the first 30 days: the growth without retention, per day.
      if (day <= 30) growthPerDay = sum(bytesBefore) / day;
      let commits: StepResult['commits'];
      let removed: Record<string, number> = {};
      if (measured.has(step) || resumeDatabase) ({ removed, commits } = await measureAround(pool, to));
      // The rest of the step's prune at full speed (no pause): the year's simulation is about sizes.
      const started = performance.now();
      const outcome = await prune(pool, { ...settings, batchPauseMs: 0 }, { now: to });
      if (outcome.kind !== 'pruned') throw new Error('another pruner held the lock');
      const pruneSeconds = (performance.now() - started) / 1000;
      const fullSpeedRemoved = outcome.report.tables.reduce((a, t) => a + t.removed, 0);
      for (const t of outcome.report.tables) removed[t.table] = (removed[t.table] ?? 0) + t.removed;
      // What autovacuum does over a simulated week: the space the prune freed is reused by the next.
      const vacuumStarted = performance.now();
      await pool.query(
        'VACUUM (ANALYZE) sync.runs, sync.events, sync.webhook_deliveries, sync.webhook_delivery_states, sync.rejected_records, sync.detail_requests, sync.backfill_windows',
      );
      const vacuumSeconds = (performance.now() - vacuumStarted) / 1000;
      const result: StepResult = {
        day,
        written,
        seconds: {
          write: Math.round(writeSeconds),
          writePerTable,
          prune: Math.round(pruneSeconds),
          vacuum: Math.round(vacuumSeconds),
        },
        bytesBefore,
        bytesAfter: await tableSizes(pool),
        rowsAfter: await rowCounts(pool),
        removed,
        fullSpeed: { removed: fullSpeedRemoved, seconds: Math.round(pruneSeconds * 100) / 100 },
        ...(commits ? { commits } : {}),
      };
      results.push(result);
      // Written after every step too, so a run stopped early leaves what it measured.
      writeResults(
        { complete: false, pairs, days, stepDays, volumes, retention: { ...settings, restPerBusy } },
        results,
      );
      console.log(
        `day ${String(day).padStart(3)}: ${mib(sum(bytesBefore)).toFixed(1).padStart(8)} MiB before prune, ` +
          `${mib(sum(result.bytesAfter)).toFixed(1).padStart(8)} after; removed ${sum(result.removed)} rows` +
          ` (write ${writeSeconds.toFixed(0)} s, prune ${pruneSeconds.toFixed(0)} s, vacuum ${vacuumSeconds.toFixed(0)} s)` +
          (commits
            ? `; window commit p95 ${commits.withP95Ms} ms with the pruner, ${commits.withoutP95Ms} without (${commits.ratio}x)` +
              (commits.compared ?? [])
                .map(
                  (c) =>
                    `; rest ${c.restPerBusy}x: ${c.withP95Ms} ms (${c.ratio}x, ${c.prunedRowsPerSecond} rows/s)`,
                )
                .join('') +
              `; ${commits.prunedRowsPerSecond} rows/s`
            : ''),
      );
    }
    const last = results.at(-1) as StepResult;
    const steady = results.filter((r) => r.day > 90 + stepDays);
    const totals = steady.map((r) => sum(r.bytesAfter));
    const removedRows = results.reduce((a, r) => a + sum(r.removed), 0);
    // Full speed: steps whose prune had enough to do for the rate to mean something.
    const fullSpeed = results.filter((r) => r.fullSpeed.removed >= 1000);
    const fullSpeedRows = fullSpeed.reduce((a, r) => a + r.fullSpeed.removed, 0);
    const fullSpeedSeconds = fullSpeed.reduce((a, r) => a + r.fullSpeed.seconds, 0);
    const measuredCommits = results.flatMap((r) => (r.commits ? [r.commits] : []));
    const summary = {
      pairs,
      days,
      stepDays,
      volumes,
      retention: { ...settings, restPerBusy },
      runsPerPairPerDay: Math.round(runsPerDay),
      rowsWritten: results.reduce((a, r) => a + sum(r.written), 0),
      rowsRemoved: removedRows,
      rowsRemovedPerSecondFullSpeed: Math.round(fullSpeedRows / fullSpeedSeconds),
      rowsRemovedPerSecondWithDefaults: Math.round(
        measuredCommitsRate(results.flatMap((r) => (r.commits ? [r.commits] : []))),
      ),
      pruneSecondsFullSpeed: Math.round(fullSpeedSeconds),
      bytesAtEnd: last.bytesAfter,
      rowsAtEnd: last.rowsAfter,
      steadyMiB: {
        min: mib(Math.min(...totals)),
        max: mib(Math.max(...totals)),
        last: mib(sum(last.bytesAfter)),
      },
      perPairMiBWithRetention: Math.round((sum(last.bytesAfter) / pairs / MiB) * 100) / 100,
      perPairMiBPerYearWithout: growthPerDay
        ? Math.round(((growthPerDay * 365) / pairs / MiB) * 10) / 10
        : null,
      windowCommits: measuredCommits,
      worstCommitRatio: Math.max(...measuredCommits.map((c) => c.ratio)),
      wallSeconds: Math.round((performance.now() - began) / 1000),
      measuredAt: new Date().toISOString(),
    };
    console.table({
      'rows removed per second, full speed (no pause)': summary.rowsRemovedPerSecondFullSpeed,
      'rows removed per second, default batch and pause': summary.rowsRemovedPerSecondWithDefaults,
      'sync tables over the last 9 months, MiB (min-max)': `${summary.steadyMiB.min}-${summary.steadyMiB.max}`,
      'disk per pair with retention, MiB': summary.perPairMiBWithRetention,
      'disk per pair per year without, MiB': summary.perPairMiBPerYearWithout,
      'window commit p95 with/without pruner (worst)': summary.worstCommitRatio,
    });
    writeResults({ complete: true, ...summary }, results);
  } finally {
    await pool.end();
    if (!resumeDatabase) {
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      await admin.end();
    }
  }
}

await main();
