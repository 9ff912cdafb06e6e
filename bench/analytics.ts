/**
 * `npm run bench:analytics [-- --pairs 100 --days 365]`: a year of warehouse data for 100
 * supplier+account pairs generated directly in Postgres (bench/analytics/generate.ts), the
 * analytics views filled (first refresh) and refreshed again as the worker does (CONCURRENTLY,
 * against full views), each timed, then every query of the analyst's guide
 * (docs/analytics.md) timed, median of 5 runs after a warm-up. Figures are also given as ratios to
 * a baseline measured in the same run: a full scan of fulfillment.shipment_lines (the machine is
 * shared; absolute times drift). Writes bench/analytics-results.json. Asserts nothing; not part of
 * npm test. Runs from the repository root (it reads docs/analytics.md).
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { guideQueries } from '../src/analytics/guideQueries.ts';
import { refreshAllAnalytics } from '../src/analytics/refresh.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { withDatabase } from '../src/db/urls.ts';
import { PACKAGE_ROOT } from '../src/runtime/packageRoot.ts';
import { generateStatements } from './analytics/generate.ts';

const serverUrl = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const log = (line: string) => process.stderr.write(`${line}\n`);
const RUNS = 5;

function numberArg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const value = at === -1 ? undefined : Number(process.argv[at + 1]);
  return value !== undefined && Number.isFinite(value) && value > 0 ? value : fallback;
}

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

async function main(): Promise<void> {
  const pairs = numberArg('pairs', 100);
  const days = numberArg('days', 365);
  const database = `fs_bench_analytics_${pairs}x${days}`;
  const url = withDatabase(serverUrl, database);
  const admin = new pg.Client({ connectionString: withDatabase(serverUrl, 'postgres') });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
  await runMigrations(url);
  const client = new pg.Client({ connectionString: url, application_name: 'bench analytics' });
  await client.connect();
  try {
    log(`generating ${days} days for ${pairs} supplier+account pairs in ${database}...`);
    const generated: Record<string, { rows: number; seconds: number }> = {};
    for (const [table, sql] of generateStatements({ pairs, days })) {
      let rows = 0;
      const seconds = (await timed(async () => (rows = (await client.query(sql)).rowCount ?? 0))) / 1000;
      generated[table] = { rows, seconds: Math.round(seconds * 10) / 10 };
      log(`  ${table.padEnd(20)} ${String(rows).padStart(10)} rows  ${seconds.toFixed(1)} s`);
    }
    await client.query('VACUUM ANALYZE');
    log('refreshing the analytics views...');
    const pool = new pg.Pool({ connectionString: url, max: 2 });
    const refreshes = await refreshAllAnalytics(pool);
    for (const r of refreshes)
      log(`  ${r.relation.padEnd(38)} first ${r.status} ${(r.durationMs / 1000).toFixed(1)} s`);
    // What the worker pays each time: CONCURRENTLY, against a full view.
    const again = await refreshAllAnalytics(pool);
    await pool.end();
    for (const r of again)
      log(`  ${r.relation.padEnd(38)} again ${r.status} ${(r.durationMs / 1000).toFixed(1)} s`);
    await client.query('VACUUM ANALYZE');
    const sizes = await client.query<{ relation: string; rows: string }>(
      `SELECT n.nspname || '.' || c.relname AS relation, c.reltuples::bigint AS rows
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = 'analytics' AND c.relkind = 'm' ORDER BY 1`,
    );
    const baselineMs = await median(client, 'SELECT count(*), sum(quantity) FROM fulfillment.shipment_lines');
    log(`baseline (full scan of fulfillment.shipment_lines): ${ms(baselineMs)} ms`);
    const queries: Array<{ id: string; ms: number; vsBaseline: number; rows: number }> = [];
    for (const q of guideQueries()) {
      const time = await median(client, q.sql);
      const rows = (await client.query(q.sql)).rowCount ?? 0;
      queries.push({
        id: q.id,
        ms: ms(time),
        vsBaseline: Math.round((time / baselineMs) * 1000) / 1000,
        rows,
      });
      log(
        `  ${q.id.padEnd(26)} ${ms(time).toString().padStart(8)} ms  ${(time / baselineMs).toFixed(3)}x baseline  ${rows} rows`,
      );
    }
    const result = {
      pairs,
      days,
      at: new Date().toISOString(),
      generated,
      viewRows: Object.fromEntries(sizes.rows.map((r) => [r.relation, Number(r.rows)])),
      firstRefreshSeconds: Object.fromEntries(
        refreshes.map((r) => [r.relation, Math.round(r.durationMs / 100) / 10]),
      ),
      concurrentRefreshSeconds: Object.fromEntries(
        again.map((r) => [r.relation, Math.round(r.durationMs / 100) / 10]),
      ),
      baselineMs: ms(baselineMs),
      queries,
      slowestMs: Math.max(...queries.map((q) => q.ms)),
    };
    writeFileSync(
      path.join(PACKAGE_ROOT, 'bench', 'analytics-results.json'),
      `${JSON.stringify(result, null, 2)}\n`,
    );
    log(`slowest guide query: ${result.slowestMs} ms; written to bench/analytics-results.json`);
  } finally {
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
