/**
 * `npm run bench:pollcost [-- --mode current|minute --hours 24 --seed 11 --out name.json]`: what
 * polling one supplier and one account costs: upstream calls per hour and rows written per hour
 * (inserts + updates in the sync.* tables, from pg_stat_user_tables; the fulfillment.* tables
 * beside them), with the simulator's world moving minute by minute under a manual clock.
 *
 * `current`: each stream at its default cadence (FULFILLMENT_STREAMS untouched); `minute`: every
 * scheduled stream every minute (cadenceMinutes 1), as a freshness-derived 60 s poll would. After
 * each shipments or returns run an orders run follows, as the worker enqueues it. Runs go through
 * the worker's engine runner (leases, cursors, the run log, events), one at a time, in stream order.
 * The initial load comes first and is not measured. Not a test: it asserts nothing.
 */
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import { createFulfillmentClient, staticTokenProvider } from '../src/api/index.ts';
import { loadConfig } from '../src/config/loadConfig.ts';
import { STREAM_NAMES, type StreamName } from '../src/config/types.ts';
import { runMigrations } from '../src/db/migrate.ts';
import { quoteIdent, withDatabase } from '../src/db/urls.ts';
import { startSimulator } from '../src/simulator/index.ts';
import type { StreamRunResult } from '../src/sync/types.ts';
import { createEngineRunner } from '../src/worker/engineRunner.ts';
import { STREAM_SCOPE_KIND } from '../src/worker/streamScopes.ts';
import { positiveArg } from './args.ts';

const argOf = (name: string, fallback: string) =>
  process.argv.includes(`--${name}`) ? String(process.argv[process.argv.indexOf(`--${name}`) + 1]) : fallback;
const mode = argOf('mode', 'current');
if (mode !== 'current' && mode !== 'minute') {
  console.error('--mode is current or minute');
  process.exit(2);
}
const hours = positiveArg('hours', mode === 'current' ? 24 : 3);
const seed = Math.floor(positiveArg('seed', 11));
const resultsFile = path.basename(argOf('out', `pollcost-${mode}-results.json`));
const serverUrl =
  process.env.BENCH_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
const TOKEN = 'sandbox-token';
const APP = `pollcost-${randomBytes(4).toString('hex')}`;

interface StreamTally {
  runs: number;
  calls: number;
  emptyRuns: number;
  emptyCalls: number;
  rowsChanged: number;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Inserts and updates per table since the database was created. Read once every backend of the
 * runs has exited: a backend flushes its table counters to the statistics when it exits.
 */
async function tupleWrites(database: string): Promise<Record<string, number>> {
  return admin(async (client) => {
    for (;;) {
      const left = await client.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE application_name = $1',
        [APP],
      );
      if (left.rows[0].n === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const db = new pg.Client({ connectionString: withDatabase(serverUrl, database) });
    await db.connect();
    try {
      const { rows } = await db.query<{ name: string; n: string }>(
        `SELECT schemaname || '.' || relname AS name, n_tup_ins + n_tup_upd AS n
           FROM pg_stat_user_tables WHERE schemaname IN ('sync', 'fulfillment')`,
      );
      return Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
    } finally {
      await db.end();
    }
  });
}

async function main() {
  const database = `pollcost_${randomBytes(4).toString('hex')}`;
  await admin((c) => c.query(`CREATE DATABASE ${quoteIdent(database)}`));
  const url = withDatabase(serverUrl, database);
  const start = new Date('2026-11-10T08:00:00Z');
  const sim = await startSimulator({
    seed,
    clock: 'manual',
    start,
    volume: { historyDays: 3, suppliers: 1 },
  });
  try {
    await runMigrations(url);
    const supplier = sim.world.suppliers[0]!.id;
    const account =
      sim.world.accounts.find((a) => a.supplierId === supplier)?.number ?? sim.world.accounts[0]!.number;
    const cadences = mode === 'minute' ? { cadenceMinutes: 1 } : {};
    const config = loadConfig({
      DATABASE_URL: url,
      FULFILLMENT_API_URL: sim.url,
      FULFILLMENT_API_TOKEN: TOKEN,
      FULFILLMENT_SUPPLIER_IDS: supplier,
      FULFILLMENT_ACCOUNT_NUMBERS: account,
      FULFILLMENT_SYNC_START: new Date(start.getTime() - 3 * 86_400_000).toISOString(),
      FULFILLMENT_STREAMS: JSON.stringify(
        Object.fromEntries(STREAM_NAMES.filter((s) => s !== 'orders').map((s) => [s, cadences])),
      ),
      FULFILLMENT_VANISH_CONFIRM_PAUSE_MS: '20',
    });
    const client = createFulfillmentClient({
      baseUrl: sim.url,
      tokenProvider: staticTokenProvider(TOKEN),
      timeoutMs: 10_000,
      rateLimitRps: 0,
      maxRowsPerCall: config.api.maxRowsPerWindow,
    });
    const scopeOf = (stream: StreamName) => (STREAM_SCOPE_KIND[stream] === 'account' ? account : supplier);
    const scheduled = STREAM_NAMES.filter((s) => config.streams[s].cadenceMinutes > 0);
    const tally = new Map<string, StreamTally>();
    const measuring = { on: false };
    const onResult = (r: StreamRunResult) => {
      if (!measuring.on) return;
      const t = tally.get(r.stream) ?? { runs: 0, calls: 0, emptyRuns: 0, emptyCalls: 0, rowsChanged: 0 };
      t.runs += 1;
      t.calls += r.apiCalls;
      t.rowsChanged += r.inserted + r.updated;
      if (r.status === 'succeeded' && r.inserted + r.updated === 0 && r.rejected === 0) {
        t.emptyRuns += 1;
        t.emptyCalls += r.apiCalls;
      }
      tally.set(r.stream, t);
    };
    const logger = pino({ level: 'silent' });
    const openRunner = () => {
      const pool = new pg.Pool({ connectionString: url, max: 2, application_name: APP });
      const run = createEngineRunner({
        pool,
        client,
        config,
        logger,
        now: () => new Date(sim.clock.now()),
        lockMode: 'wait',
        onResult: (r) => onResult(r),
      });
      const sync = async (stream: StreamName) => {
        await run({ stream, scope: scopeOf(stream), mode: 'incremental' }).catch(() => undefined);
        // The worker follows shipments and returns with the account's order details.
        if (stream === 'shipments' || stream === 'returns')
          await run({ stream: 'orders', scope: account, mode: 'incremental' }).catch(() => undefined);
      };
      return { pool, sync };
    };

    // The initial load, unmeasured.
    const load = openRunner();
    for (const stream of scheduled) await load.sync(stream);
    await load.pool.end();
    const before = await tupleWrites(database);
    const runRowsBefore = await countRunRows(url);

    const measured = openRunner();
    measuring.on = true;
    const minutes = Math.round(hours * 60);
    const started = performance.now();
    for (let m = 1; m <= minutes; m += 1) {
      sim.clock.advance(1);
      for (const stream of scheduled)
        if (m % Math.round(config.streams[stream].cadenceMinutes) === 0) await measured.sync(stream);
    }
    const seconds = (performance.now() - started) / 1000;
    await measured.pool.end();
    const after = await tupleWrites(database);

    const streams = Object.fromEntries(
      [...tally.entries()].map(([stream, t]) => [
        stream,
        {
          ...t,
          callsPerHour: round(t.calls / hours),
          callsPerEmptyPoll: t.emptyRuns > 0 ? round(t.emptyCalls / t.emptyRuns) : null,
        },
      ]),
    );
    const calls = [...tally.values()].reduce((sum, t) => sum + t.calls, 0);
    const written = Object.fromEntries(
      Object.keys(after)
        .map((t) => [t, (after[t] ?? 0) - (before[t] ?? 0)] as const)
        .filter(([, n]) => n > 0)
        .sort((x, y) => y[1] - x[1]),
    );
    const rowsWritten = (schema: string) =>
      Object.entries(written).reduce((sum, [t, n]) => (t.startsWith(`${schema}.`) ? sum + n : sum), 0);
    const results = {
      mode,
      hours,
      seed,
      pair: { supplier, account },
      cadences: Object.fromEntries(scheduled.map((s) => [s, config.streams[s].cadenceMinutes])),
      callsPerHour: round(calls / hours),
      syncRowsWrittenPerHour: round(rowsWritten('sync') / hours),
      fulfillmentRowsWrittenPerHour: round(rowsWritten('fulfillment') / hours),
      runsPerHour: round([...tally.values()].reduce((sum, t) => sum + t.runs, 0) / hours),
      runRowsPerHour: round(((await countRunRows(url)) - runRowsBefore) / hours),
      streams,
      tablesRowsWrittenPerHour: Object.fromEntries(
        Object.entries(written).map(([t, n]) => [t, round(n / hours)]),
      ),
      seconds: round(seconds),
    };
    console.log(JSON.stringify(results, null, 2));
    writeFileSync(path.join(import.meta.dirname, resultsFile), `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await sim.close();
    await admin((c) => c.query(`DROP DATABASE IF EXISTS ${quoteIdent(database)} WITH (FORCE)`));
  }
}

/** Rows in sync.runs now. */
async function countRunRows(url: string): Promise<number> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    return (await db.query('SELECT count(*)::int AS n FROM sync.runs')).rows[0].n;
  } finally {
    await db.end();
  }
}

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

await main();
