/**
 * `npm run bench [-- --records N]`: the engine's write stage against a plain COPY of the same rows
 * into the same tables, end to end through the HTTP client, a no-op re-sync, and peak RSS. Prints a
 * table and writes bench/results.json. Not a test: it asserts nothing about timing.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import pg from 'pg';
import pino from 'pino';
import { createFulfillmentClient, staticTokenProvider } from '../src/api/index.ts';
import { loadConfig } from '../src/config/loadConfig.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { shipmentEvents, shipmentLines, shipments } from '../src/db/schema/shipments.ts';
import { quoteIdent, withDatabase } from '../src/db/urls.ts';
import { shipmentsStream } from '../src/streams/shipments.ts';
import { applyWindow } from '../src/sync/applyWindow.ts';
import { minuteWindows } from '../src/sync/plan.ts';
import { parseDateTime } from '../src/sync/rows.ts';
import { runStream } from '../src/sync/runStream.ts';
import { copyRows } from './copy.ts';
import { minuteOf, shipmentUpdate, wallClock } from './generate.ts';
import { startBenchUpstream } from './upstream.ts';

const TZ = 'America/Los_Angeles';
const TABLES = ['shipments', 'shipment_lines', 'shipment_events'];
const PER_MINUTE = 50;
const BATCH = 10_000;
const scope = { kind: 'account' as const, id: 'BENCH01' };
const logger = pino({ level: 'silent' });

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} needs a positive number`);
  return Math.floor(value);
}

async function seconds<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = process.hrtime.bigint();
  const value = await fn();
  return [Number(process.hrtime.bigint() - t0) / 1e9, value];
}

async function truncate(pool: pg.Pool): Promise<void> {
  await pool.query(
    `TRUNCATE ${TABLES.map((t) => `fulfillment.${t}`).join(', ')}, sync.cursors, sync.runs CASCADE`,
  );
  await pool.query(`VACUUM ANALYZE ${TABLES.map((t) => `fulfillment.${t}`).join(', ')}`);
}

async function tuples(pool: pg.Pool): Promise<number> {
  const clients = await Promise.all(Array.from({ length: pool.totalCount || 1 }, () => pool.connect()));
  for (const c of clients) await c.query('SELECT pg_stat_force_next_flush()');
  for (const c of clients) c.release();
  const c = await pool.connect();
  try {
    await c.query('SELECT pg_stat_clear_snapshot()');
    const res = await c.query(
      `SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::bigint AS n FROM pg_stat_user_tables
       WHERE schemaname = 'fulfillment' AND relname = ANY($1)`,
      [TABLES],
    );
    return Number(res.rows[0].n);
  } finally {
    c.release();
  }
}

async function main(): Promise<void> {
  const records = arg('records', 200_000);
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
  const name = `fs_bench_${randomBytes(4).toString('hex')}`;
  const url = withDatabase(serverUrl, name);
  await runMigrations(url);
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  try {
    const config = loadConfig({ DATABASE_URL: url, FULFILLMENT_MAX_ROWS_PER_WINDOW: '1000000' });
    const ctx = { scope, timezone: TZ };
    const children = shipmentsStream.entity.children ?? [];
    // Records are generated per batch, never all at once, so peak RSS reflects the engine.
    const batchOf = (from: number) =>
      Array.from({ length: Math.min(BATCH, records - from) }, (_, i) => shipmentUpdate(from + i, PER_MINUTE));
    let totalRows = 0;

    // 1. The floor: the same records mapped by the same row builders, then COPY into the same
    //    tables. Both sides start from records, so the ratio isolates what the engine adds:
    //    reading stored keys, diffing, choosing what to write.
    await truncate(pool);
    let copySeconds = 0;
    for (let from = 0; from < records; from += BATCH) {
      const updates = batchOf(from);
      const [took] = await seconds(async () => {
        const parents = updates.map((u) => shipmentsStream.entity.row(u, ctx));
        const [lines, events] = children.map((child) => updates.flatMap((u) => child.rows(u, ctx)));
        totalRows += parents.length + (lines?.length ?? 0) + (events?.length ?? 0);
        const c = await pool.connect();
        try {
          await c.query('BEGIN');
          await copyRows(c, shipments, parents);
          await copyRows(c, shipmentLines, lines ?? []);
          await copyRows(c, shipmentEvents, events ?? []);
          await c.query('COMMIT');
        } finally {
          c.release();
        }
      });
      copySeconds += took;
    }

    // 2. The engine's write stage: records -> rows -> batched read of stored keys -> diff -> writes.
    await truncate(pool);
    const window = { kind: 'minute' as const, start: new Date(0), end: new Date(0) };
    const applyAll = async () => {
      let took = 0;
      for (let from = 0; from < records; from += BATCH) {
        const updates = batchOf(from);
        const tx = await pool.connect();
        try {
          const [s] = await seconds(async () => {
            await tx.query('BEGIN');
            await applyWindow({
              tx,
              stream: shipmentsStream,
              client: undefined as never,
              scope,
              window,
              timezone: TZ,
              records: updates,
              logger,
            });
            await tx.query('COMMIT');
          });
          took += s;
        } finally {
          tx.release();
        }
      }
      return took;
    };
    const writeSeconds = await applyAll();

    // 3. No-op re-sync of the same data: time and tuples written.
    const before = await tuples(pool);
    const noopSeconds = await applyAll();
    const noopTuplesWritten = (await tuples(pool)) - before;

    // 4. End to end: HTTP upstream -> client -> validation -> engine, in minute windows.
    await truncate(pool);
    const upstream = await startBenchUpstream(records, PER_MINUTE);
    const client = createFulfillmentClient({
      baseUrl: upstream.url,
      tokenProvider: staticTokenProvider('bench'),
      timeoutMs: 120_000,
      rateLimitRps: 0,
    });
    const lastMinute = minuteOf(records - 1, PER_MINUTE);
    const from = parseDateTime(wallClock(0), TZ) as Date;
    const to = parseDateTime(wallClock(lastMinute), TZ) as Date;
    const windows = minuteWindows(from, to, 100);
    const [endToEndSeconds, e2e] = await seconds(() =>
      runStream({ pool, client, config, logger, stream: shipmentsStream, scope, windows }),
    );
    await upstream.close();
    if (e2e.status !== 'succeeded') throw new Error(`end-to-end run ${e2e.status}: ${e2e.error}`);
    const stored = await pool.query(
      `SELECT (SELECT count(*) FROM fulfillment.shipments) + (SELECT count(*) FROM fulfillment.shipment_lines)
            + (SELECT count(*) FROM fulfillment.shipment_events) AS n`,
    );
    if (Number(stored.rows[0].n) !== totalRows)
      throw new Error(`end to end stored ${stored.rows[0].n} of ${totalRows} rows`);

    const copyRowsPerSec = totalRows / copySeconds;
    const writeRowsPerSec = totalRows / writeSeconds;
    const endToEndRowsPerSec = totalRows / endToEndSeconds;
    const results = {
      records,
      rows: totalRows,
      copySeconds: round(copySeconds),
      copyRowsPerSec: Math.round(copyRowsPerSec),
      writeSeconds: round(writeSeconds),
      writeRowsPerSec: Math.round(writeRowsPerSec),
      writeVsCopy: round(writeRowsPerSec / copyRowsPerSec),
      endToEndSeconds: round(endToEndSeconds),
      endToEndRowsPerSec: Math.round(endToEndRowsPerSec),
      endToEndVsCopy: round(endToEndRowsPerSec / copyRowsPerSec),
      endToEndApiCalls: e2e.apiCalls,
      noopSeconds: round(noopSeconds),
      noopTuplesWritten,
      peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      node: process.version,
      measuredAt: new Date().toISOString(),
    };
    console.table({
      'COPY (floor)': { seconds: results.copySeconds, 'rows/s': results.copyRowsPerSec, 'x COPY': 1 },
      'engine write stage': {
        seconds: results.writeSeconds,
        'rows/s': results.writeRowsPerSec,
        'x COPY': results.writeVsCopy,
      },
      'end to end (HTTP)': {
        seconds: results.endToEndSeconds,
        'rows/s': results.endToEndRowsPerSec,
        'x COPY': results.endToEndVsCopy,
      },
      'no-op re-sync': { seconds: results.noopSeconds, 'tuples written': noopTuplesWritten },
    });
    console.log(`${records} shipment updates = ${totalRows} rows; peak RSS ${results.peakRssMiB} MiB`);
    writeFileSync(new URL('./results.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await pool.end();
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    await admin.end();
  }
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
