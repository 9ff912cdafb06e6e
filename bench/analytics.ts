/**
 * `npm run bench:analytics [-- --pairs 100 --days 365] [--keep]`: a year of warehouse data for 100
 * supplier+account pairs generated directly in Postgres (bench/analytics/generate.ts; the change
 * triggers off, as on a database upgraded with its history), then:
 * 1. every kept analytics table rebuilt whole (what an upgrade's first refresh does), timed;
 * 2. an hour of a busy deployment's writes (bench/analytics/hourOfChanges.ts) in one transaction,
 *    timed with the change triggers and without (rolled back), then committed;
 * 3. every kept table refreshed after that hour, timed per table and in all;
 * 4. every query of the analyst's guide (docs/analytics.md), median of 5 after a warm-up.
 * During every rebuild and refresh a reader runs a guide query over that table back to back while
 * an observer watches pg_locks: the slowest reader query and any lock it waited for are reported.
 * Figures are also given as ratios to a baseline measured in the same run: a full scan of
 * fulfillment.shipment_lines (the machine is shared; absolute times drift). Writes
 * bench/analytics-results.json. Asserts nothing; not part of npm test. Runs from the repository
 * root (it reads docs/analytics.md).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { guideQueries } from '../src/analytics/guideQueries.ts';
import { refreshAllAnalytics } from '../src/analytics/refresh.ts';
import { MAINTAINED } from '../src/analytics/views.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { withDatabase } from '../src/db/urls.ts';
import { PACKAGE_ROOT } from '../src/runtime/packageRoot.ts';
import { generateStatements } from './analytics/generate.ts';
import { hourOfChangesStatements } from './analytics/hourOfChanges.ts';
import { type ReadersDuringRefresh, readDuringRefresh } from './analytics/readers.ts';
import { positiveArg } from './args.ts';

const serverUrl = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const log = (line: string) => process.stderr.write(`${line}\n`);
const RUNS = 5;
/** The guide query a reader runs while each kept table is refreshed (one reading that table). */
const READER_QUERY: Record<string, string> = {
  'analytics.shipment_facts': 'slow-by-carrier',
  'analytics.order_lifecycle': 'order-lifecycle',
  'analytics.carrier_performance_weekly': 'carrier-weekly',
  'analytics.shipped_units_daily': 'return-rate-by-sku',
  'analytics.daily_inventory': 'daily-inventory',
  'analytics.stock_out_spells': 'stock-outs',
};

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

async function median(client: pg.Client, sql: string): Promise<number> {
  await client.query(sql);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) times.push(await timed(() => client.query(sql)));
  times.sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)]!;
}

const ms = (value: number) => Math.round(value * 10) / 10;
const ratio = (value: number, baseline: number) => Math.round((value / baseline) * 1000) / 1000;

/** Runs the hour's statements in one transaction; answers how long they took. */
async function hourOfChanges(
  client: pg.Client,
  pairs: number,
  options: { triggers: boolean; commit: boolean },
) {
  return timed(async () => {
    await client.query('BEGIN');
    if (!options.triggers) await client.query('SET LOCAL session_replication_role = replica');
    for (const [, sql] of hourOfChangesStatements({ pairs })) await client.query(sql);
    await client.query(options.commit ? 'COMMIT' : 'ROLLBACK');
  });
}

async function main(): Promise<void> {
  const pairs = positiveArg('pairs', 100);
  const days = positiveArg('days', 365);
  const database = `fs_bench_analytics_${pairs}x${days}`;
  const url = withDatabase(serverUrl, database);
  const admin = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
  await runMigrations(url);
  const client = new pg.Client({ connectionString: url, application_name: 'bench analytics' });
  await client.connect();
  const pool = new pg.Pool({ connectionString: url, max: 2, application_name: 'bench refresh' });
  const guide = new Map(guideQueries().map((q) => [q.id, q.sql]));
  try {
    log(`generating ${days} days for ${pairs} supplier+account pairs in ${database}...`);
    const generated: Record<string, { rows: number; seconds: number }> = {};
    // A history loaded before the triggers existed, as on an upgraded database.
    await client.query('SET session_replication_role = replica');
    for (const [table, sql] of generateStatements({ pairs, days })) {
      let rows = 0;
      const seconds = (await timed(async () => (rows = (await client.query(sql)).rowCount ?? 0))) / 1000;
      generated[table] = { rows, seconds: Math.round(seconds * 10) / 10 };
      log(`  ${table.padEnd(20)} ${String(rows).padStart(10)} rows  ${seconds.toFixed(1)} s`);
    }
    await client.query('RESET session_replication_role');
    await client.query('VACUUM ANALYZE');
    const baselineMs = await median(client, 'SELECT count(*), sum(quantity) FROM fulfillment.shipment_lines');
    log(`baseline (full scan of fulfillment.shipment_lines): ${ms(baselineMs)} ms`);

    const during = async (rebuild: boolean) => {
      const results: ReadersDuringRefresh[] = [];
      for (const relation of MAINTAINED) {
        const reader = guide.get(READER_QUERY[relation]!)!;
        const r = await readDuringRefresh(url, pool, relation, reader, rebuild);
        results.push(r);
        const how = rebuild ? 'rebuilt' : `took in ${r.refresh.changes} changes`;
        log(
          `  ${relation.padEnd(38)} ${r.refresh.status} ${how} in ${(r.refresh.durationMs / 1000).toFixed(2)} s; reader: ${r.queries} queries, slowest ${r.slowestMs} ms, waited for ${r.waitedFor.length === 0 ? 'no lock' : r.waitedFor.join(', ')}`,
        );
      }
      return results;
    };
    log("rebuilding every kept table (an upgrade's first refresh)...");
    const rebuilds = await during(true);
    await refreshAllAnalytics(pool);
    await client.query('VACUUM ANALYZE');

    log('an hour of changes...');
    const withTriggersMs = await hourOfChanges(client, pairs, { triggers: true, commit: false });
    const withoutTriggersMs = await hourOfChanges(client, pairs, { triggers: false, commit: false });
    const committedMs = await hourOfChanges(client, pairs, { triggers: true, commit: true });
    const queued = await client.query<{ relation: string; n: string }>(
      'SELECT relation, count(*) AS n FROM sync.analytics_changes GROUP BY 1 ORDER BY 1',
    );
    log(
      `  written in ${ms(committedMs)} ms (${ms(withTriggersMs)} ms with the triggers, ${ms(withoutTriggersMs)} ms without, rolled back); queued: ${queued.rows.map((r) => `${r.relation} ${r.n}`).join(', ')}`,
    );
    log('refreshing every kept table after the hour...');
    const refreshes = await during(false);
    const refreshTotalMs = refreshes.reduce((n, r) => n + r.refresh.durationMs, 0);
    log(
      `  all tables: ${(refreshTotalMs / 1000).toFixed(2)} s (${ratio(refreshTotalMs, baselineMs)}x baseline)`,
    );

    await client.query('VACUUM ANALYZE');
    const sizes = await client.query<{ relation: string; rows: string }>(
      `SELECT n.nspname || '.' || c.relname AS relation, c.reltuples::bigint AS rows
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'analytics' AND c.relkind = 'r' ORDER BY 1`,
    );
    log('guide queries...');
    const queries: Array<{ id: string; ms: number; vsBaseline: number; rows: number }> = [];
    for (const q of guideQueries()) {
      const time = await median(client, q.sql);
      const rows = (await client.query(q.sql)).rowCount ?? 0;
      queries.push({ id: q.id, ms: ms(time), vsBaseline: ratio(time, baselineMs), rows });
      log(
        `  ${q.id.padEnd(26)} ${ms(time).toString().padStart(8)} ms  ${ratio(time, baselineMs)}x baseline  ${rows} rows`,
      );
    }
    const summary = (r: ReadersDuringRefresh) => ({
      seconds: Math.round(r.refresh.durationMs / 10) / 100,
      vsBaseline: ratio(r.refresh.durationMs, baselineMs),
      changes: r.refresh.changes,
      status: r.refresh.status,
      readerQueries: r.queries,
      slowestReaderMs: r.slowestMs,
      readerWaitedFor: r.waitedFor,
    });
    const result = {
      pairs,
      days,
      at: new Date().toISOString(),
      generated,
      tableRows: Object.fromEntries(sizes.rows.map((r) => [r.relation, Number(r.rows)])),
      baselineMs: ms(baselineMs),
      rebuild: Object.fromEntries(rebuilds.map((r) => [r.relation, summary(r)])),
      hourOfChanges: {
        committedMs: ms(committedMs),
        withTriggersMs: ms(withTriggersMs),
        withoutTriggersMs: ms(withoutTriggersMs),
        queued: Object.fromEntries(queued.rows.map((r) => [r.relation, Number(r.n)])),
      },
      refreshAfterHour: Object.fromEntries(refreshes.map((r) => [r.relation, summary(r)])),
      refreshAfterHourTotalSeconds: Math.round(refreshTotalMs / 10) / 100,
      refreshAfterHourVsBaseline: ratio(refreshTotalMs, baselineMs),
      slowestReaderMs: Math.max(...[...rebuilds, ...refreshes].map((r) => r.slowestMs)),
      readerLockWaits: [...rebuilds, ...refreshes].flatMap((r) => r.waitedFor),
      queries,
      slowestQueryMs: Math.max(...queries.map((q) => q.ms)),
    };
    writeFileSync(
      path.join(PACKAGE_ROOT, 'bench', 'analytics-results.json'),
      `${JSON.stringify(result, null, 2)}\n`,
    );
    log(
      `refresh after an hour: ${result.refreshAfterHourTotalSeconds} s; slowest guide query ${result.slowestQueryMs} ms; slowest reader during a refresh ${result.slowestReaderMs} ms, lock waits: ${result.readerLockWaits.length}; written to bench/analytics-results.json`,
    );
  } finally {
    await pool.end();
    await client.end();
    if (!process.argv.includes('--keep')) {
      const drop = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
      await drop.connect();
      await drop.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await drop.end();
    }
  }
}

main().catch((error: unknown) => {
  log(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
