/**
 * One size of the benchmark (`bench/run.ts` runs it in a process of its own per size, so each peak
 * RSS is that size's): the engine's write stage against a plain COPY of the same rows into the
 * same tables, end to end from the simulator over HTTP, a no-op re-sync. Prints one JSON line.
 */

import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { createFulfillmentClient, staticTokenProvider } from '../src/api/index.ts';
import { loadConfig } from '../src/config/loadConfig.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { shipmentEvents, shipmentLines, shipments } from '../src/db/schema/shipments.ts';
import { quoteIdent, withDatabase } from '../src/db/urls.ts';
import { shipmentsStream } from '../src/streams/shipments.ts';
import { minuteWindows } from '../src/sync/plan.ts';
import { runStream } from '../src/sync/runStream.ts';
import { copyRows } from './copy.ts';
import { shipmentUpdate } from './generate.ts';

const TZ = 'America/Los_Angeles';
const TABLES = ['shipments', 'shipment_lines', 'shipment_events'];
const PER_MINUTE = 50;
const HISTORY_DAYS = 14;
/** The row cap of one answer, at the client and at the simulator (FULFILLMENT_MAX_ROWS_PER_WINDOW's default). */
const ROW_CAP = 5000;
/** Records per write: one answer at the cap, the most one window's call brings. */
const BATCH = ROW_CAP;
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
    const config = loadConfig({ DATABASE_URL: url, FULFILLMENT_MAX_ROWS_PER_WINDOW: String(ROW_CAP) });
    const ctx = { scope, timezone: TZ, now: new Date() };
    const children = shipmentsStream.entity.children ?? [];
    // Records are generated per batch, never all at once, so peak RSS reflects the engine.
    const batchOf = (from: number) =>
      Array.from({ length: Math.min(BATCH, records - from) }, (_, i) => shipmentUpdate(from + i, PER_MINUTE));
    let totalRows = 0;

    // 1. The floor: the same records mapped by the same row builders, then COPY into the same
    //    tables. Both sides start from records, so the ratio isolates what the engine adds:
    //    reading stored keys, diffing, choosing what to write.
    const copyAll = async () => {
      await truncate(pool);
      let took = 0;
      totalRows = 0;
      for (let from = 0; from < records; from += BATCH) {
        const updates = batchOf(from);
        const [s] = await seconds(async () => {
          const parents = updates.map((u) => shipmentsStream.entity.row(u, ctx));
          const [lines, events] = children.map((child) => updates.flatMap((u) => child.rows(u, ctx)));
          totalRows += parents.length + (lines?.length ?? 0) + (events?.length ?? 0);
          const c = await pool.connect();
          try {
            await c.query('BEGIN');
            // The same synced_at the engine stamps, so both sides send the same rows.
            const stamp = { syncedAt: ctx.now };
            await copyRows(c, shipments, parents, stamp);
            await copyRows(c, shipmentLines, lines ?? [], stamp);
            await copyRows(c, shipmentEvents, events ?? [], stamp);
            await c.query('COMMIT');
          } finally {
            c.release();
          }
        });
        took += s;
      }
      return took;
    };
    // Measured before and after the engine; the faster run is the floor (warm JIT, fair to COPY).
    const copyFirst = await copyAll();
    if (process.env.BENCH_TRACE)
      console.error(
        'copy',
        Math.round(process.memoryUsage().rss / 1048576),
        Math.round(process.resourceUsage().maxRSS / 1024),
      );

    // 2. The engine's write stage: the same records handed to the engine as the answers of a
    //    backfill's windows, one batch each (runStream with a fetch that returns the batch): read
    //    stored keys, check, diff, write, with the lease and run log a sync has, without the cursor.
    await truncate(pool);
    const batchWindows = Array.from({ length: Math.ceil(records / BATCH) }, (_, i) => ({
      kind: 'minute' as const,
      start: new Date(i * BATCH * 60_000),
      end: new Date((i + 1) * BATCH * 60_000 - 60_000),
    }));
    // Generating a batch is the bench's own work, not the engine's: its time is taken out, as the
    // COPY floor generates outside its timing.
    let generating = 0;
    const handOver: typeof shipmentsStream = {
      ...shipmentsStream,
      fetchWindow: async ({ window }) => {
        const [s, batch] = await seconds(async () => batchOf(window.start.getTime() / 60_000));
        generating += s;
        return { records: batch, rejected: [], apiCalls: 0 };
      },
    };
    const applyAll = async () => {
      generating = 0;
      const [took, result] = await seconds(() =>
        runStream({
          pool,
          client: undefined as never,
          config,
          logger,
          stream: handOver,
          scope,
          mode: 'backfill',
          windows: batchWindows,
          now: ctx.now,
        }),
      );
      if (result.status !== 'succeeded') throw new Error(`write stage ${result.status}: ${result.error}`);
      return took - generating;
    };
    const writeSeconds = await applyAll();
    if (process.env.BENCH_TRACE)
      console.error(
        'write',
        Math.round(process.memoryUsage().rss / 1048576),
        Math.round(process.resourceUsage().maxRSS / 1024),
      );

    // 3. No-op re-sync of the same data: time and tuples written.
    const before = await tuples(pool);
    const noopSeconds = await applyAll();
    if (process.env.BENCH_TRACE)
      console.error(
        'noop',
        Math.round(process.memoryUsage().rss / 1048576),
        Math.round(process.resourceUsage().maxRSS / 1024),
      );
    const noopTuplesWritten = (await tuples(pool)) - before;

    const copySeconds = Math.min(copyFirst, await copyAll());

    // 4. End to end from the simulator (its static volume of shipment updates, spread over the
    //    history): HTTP -> client -> validation -> engine, in minute windows, every account.
    await truncate(pool);
    const sim = await startSimProcess(records);
    const client = createFulfillmentClient({
      baseUrl: sim.url,
      tokenProvider: staticTokenProvider('sandbox-token'),
      timeoutMs: 120_000,
      rateLimitRps: 0,
      maxRowsPerCall: ROW_CAP,
    });
    const simNow = new Date(sim.now);
    // Calls sized to stay under the row cap, as adaptive windows settle (about 4,000 records per
    // answer at any volume: what keeps memory flat), and the accounts synced side by side, as a
    // worker runs its jobs (WORKER_CONCURRENCY).
    const perMinute = records / sim.accounts.length / ((HISTORY_DAYS + 1) * 1440);
    const windowMinutes = Math.max(60, Math.floor((ROW_CAP * 0.8) / perMinute));
    const windows = minuteWindows(
      new Date(simNow.getTime() - (HISTORY_DAYS + 1) * 86_400_000),
      simNow,
      windowMinutes,
    );
    let e2eCalls = 0;
    const [endToEndSeconds] = await seconds(() =>
      Promise.all(
        sim.accounts.map(async (account) => {
          const r = await runStream({
            pool,
            client,
            config,
            logger,
            stream: shipmentsStream,
            scope: { kind: 'account' as const, id: account },
            windows,
            now: simNow,
          });
          if (r.status !== 'succeeded') throw new Error(`end-to-end run ${r.status}: ${r.error}`);
          e2eCalls += r.apiCalls;
        }),
      ),
    );
    await sim.close();
    if (process.env.BENCH_TRACE)
      console.error(
        'e2e',
        Math.round(process.memoryUsage().rss / 1048576),
        Math.round(process.resourceUsage().maxRSS / 1024),
      );
    const stored = await pool.query(
      `SELECT (SELECT count(*) FROM fulfillment.shipments) + (SELECT count(*) FROM fulfillment.shipment_lines)
            + (SELECT count(*) FROM fulfillment.shipment_events) AS n`,
    );
    const endToEndRows = Number(stored.rows[0].n);

    const copyRowsPerSec = totalRows / copySeconds;
    const writeRowsPerSec = totalRows / writeSeconds;
    const endToEndRowsPerSec = endToEndRows / endToEndSeconds;
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
      endToEndRows,
      endToEndApiCalls: e2eCalls,
      endToEndWindowMinutes: windowMinutes,
      noopRowsPerSec: Math.round(totalRows / noopSeconds),
      noopVsCopy: round(totalRows / noopSeconds / copyRowsPerSec),
      noopSeconds: round(noopSeconds),
      noopTuplesWritten,
      peakRssMiB: Math.round(process.resourceUsage().maxRSS / 1024),
      node: process.version,
      measuredAt: new Date().toISOString(),
    };
    console.log(JSON.stringify(results));
  } finally {
    await pool.end();
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    await admin.end();
  }
}

/** Starts bench/simProcess.ts in a child process (its own core, like a real upstream). */
function startSimProcess(
  records: number,
): Promise<{ url: string; now: number; accounts: string[]; close: () => Promise<void> }> {
  const compiled = import.meta.url.endsWith('.js');
  const script = new URL(compiled ? './simProcess.js' : './simProcess.ts', import.meta.url);
  const child = fork(script, [String(records), String(HISTORY_DAYS), String(ROW_CAP)], {
    execArgv: compiled ? [] : ['--import', 'tsx'],
  });

  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('message', (m) => {
      const info = m as { url: string; now: number; accounts: string[] };
      resolve({
        ...info,
        close: () =>
          new Promise<void>((done) => {
            child.once('exit', () => done());
            child.send('close');
          }),
      });
    });
  });
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
