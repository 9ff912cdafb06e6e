/**
 * `npm run bench:webhooks [-- --events N --concurrency C]`: webhook delivery throughput of one
 * worker, at the endpoint concurrency C (default WEBHOOK_ENDPOINT_CONCURRENCY's, 10). A backlog
 * of N events (default 100,000) owed to one local receiver is delivered by one worker's relay and
 * dispatcher (the code `fulfillment-sync worker` runs); then live events are committed at a steady
 * rate below capacity and each one's time from commit to delivery is measured. Then the same with
 * a second endpoint beside the first that answers every request only after 15 s. The receiver runs
 * in a process of its own. The floor is the same signed POSTs with no database, at the same
 * concurrency, before and after. Prints the figures and writes bench/webhooks-results.json. Not a
 * test: it asserts nothing about timing.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { runMigrations } from '../src/db/migrate.ts';
import { quoteIdent, withDatabase } from '../src/db/urls.ts';
import { writeEvents } from '../src/events/outbox.ts';
import type { DerivedEvent } from '../src/events/types.ts';
import { PACKAGE_ROOT } from '../src/runtime/packageRoot.ts';
import { DEFAULT_ENDPOINT_CONCURRENCY } from '../src/webhooks/delivery/dispatcher.ts';
import { attemptDelivery } from '../src/webhooks/delivery/post/attempt.ts';
import { startWebhookDelivery } from '../src/webhooks/delivery/runtime.ts';
import { addEndpoint } from '../src/webhooks/endpoints/endpoints.ts';
import { positiveArg } from './args.ts';

const LOCAL = { policy: { allowPrivateTargets: true } } as const;
/** Live events per second in the not-backlogged phase, and for how long. */
const LIVE_RATE = 50;
const LIVE_SECONDS = 10;

/** A positive whole number from `--name N` (see args.ts). */
function arg(name: string, fallback: number): number {
  return Math.floor(positiveArg(name, fallback));
}

let counter = 0;
function event(): DerivedEvent {
  counter += 1;
  return {
    id: `evt_bench_${counter}_${randomBytes(4).toString('hex')}`,
    type: 'shipment.delivered',
    occurredAt: '2026-03-01T10:00:00.000Z',
    detectedAt: '2026-03-01T10:05:00.000Z',
    subject: { kind: 'shipment', key: `C${counter}` },
    data: {
      current: { header: { containerId: `C${counter}`, statusCode: 'DELIVERED' } },
      previous: null,
      changes: [],
    },
  };
}

async function commit(pool: pg.Pool, events: DerivedEvent[]): Promise<number> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await writeEvents(client, events, { stream: 'shipments', scope: 'BENCH', suppressed: false });
    await client.query('COMMIT');
    return Date.now();
  } finally {
    client.release();
  }
}

async function startReceiver(): Promise<{ port: number; child: ChildProcess }> {
  const compiled = import.meta.url.endsWith('.js');
  const script = new URL(compiled ? './webhookReceiver.js' : './webhookReceiver.ts', import.meta.url)
    .pathname;
  const child = spawn(process.execPath, [...(compiled ? [] : ['--import', 'tsx']), script], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout?.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim())));
    child.once('exit', (code) => reject(new Error(`receiver exited with ${code}`)));
  });
  return { port, child };
}

async function delivered(pool: pg.Pool, endpointId: string): Promise<number> {
  const { rows } = await pool.query(
    `SELECT count(*)::int AS n FROM sync.webhook_delivery_states WHERE endpoint_id = $1 AND status = 'succeeded'`,
    [endpointId],
  );
  return rows[0].n as number;
}

/** Polls once a second: the count scans every delivery state, and the worker needs the database more. */
async function until(check: () => Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 1000));
}

function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

interface Scenario {
  backlog: number;
  backlogSeconds: number;
  deliveriesPerSecond: number;
  liveEvents: number;
  liveP50Ms: number;
  liveP95Ms: number;
  hangingRequests?: number;
}

/** One scenario in a fresh database: the backlog, then live events; `hang` adds the hanging endpoint. */
async function scenario(
  serverUrl: string,
  port: number,
  events: number,
  hang: boolean,
  concurrency: number,
): Promise<Scenario> {
  const name = `fs_bench_wh_${randomBytes(4).toString('hex')}`;
  const url = withDatabase(serverUrl, name);
  await runMigrations(url);
  // The worker's webhook pool size (src/worker/pools.ts), and one for the bench's own commits.
  const pool = new pg.Pool({
    connectionString: url,
    max: Number(process.env.BENCH_POOL ?? 4),
    ...(process.env.BENCH_ASYNC ? { options: '-c synchronous_commit=off' } : {}),
  });
  const benchPool = new pg.Pool({ connectionString: url, max: 2 });
  try {
    const healthy = await addEndpoint(pool, { url: `http://127.0.0.1:${port}/ok` }, LOCAL);
    if (hang) await addEndpoint(pool, { url: `http://127.0.0.1:${port}/hang` }, LOCAL);
    for (let from = 0; from < events; from += 5000) {
      await commit(benchPool, Array.from({ length: Math.min(5000, events - from) }, event));
    }
    const started = process.hrtime.bigint();
    const delivery = await startWebhookDelivery({
      ...LOCAL,
      pool,
      databaseUrl: url,
      endpointConcurrency: concurrency,
    });
    try {
      await until(async () => (await delivered(pool, healthy.id)) >= events);
      const backlogSeconds = Number(process.hrtime.bigint() - started) / 1e9;
      const committedAt = new Map<string, number>();
      for (let s = 0; s < LIVE_SECONDS * 10; s++) {
        const batch = Array.from({ length: LIVE_RATE / 10 }, event);
        const at = await commit(benchPool, batch);
        for (const e of batch) committedAt.set(e.id, at);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      await until(async () => (await delivered(pool, healthy.id)) >= events + committedAt.size);
      const { rows } = await benchPool.query(
        `SELECT event_id, attempted_at FROM sync.webhook_deliveries
          WHERE endpoint_id = $1 AND status = 'succeeded' AND event_id = ANY($2)`,
        [healthy.id, [...committedAt.keys()]],
      );
      const lags = rows.map(
        (row) => new Date(row.attempted_at).getTime() - (committedAt.get(row.event_id) as number),
      );
      const hanging = hang
        ? await benchPool.query(
            `SELECT count(*)::int AS n FROM sync.webhook_deliveries d JOIN sync.webhook_endpoints e ON e.id = d.endpoint_id
              WHERE e.url LIKE '%/hang'`,
          )
        : undefined;
      return {
        backlog: events,
        backlogSeconds: Math.round(backlogSeconds * 10) / 10,
        deliveriesPerSecond: Math.round(events / backlogSeconds),
        liveEvents: committedAt.size,
        liveP50Ms: percentile(lags, 50),
        liveP95Ms: percentile(lags, 95),
        ...(hanging ? { hangingRequests: hanging.rows[0].n as number } : {}),
      };
    } finally {
      await delivery.close();
    }
  } finally {
    await pool.end();
    await benchPool.end();
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
    await admin.end();
  }
}

/**
 * The floor: the same signed POSTs to the same receiver at the same concurrency, with no database
 * at all (attemptDelivery alone). Deliveries per second are reported against it, a ratio that
 * holds on a busy machine where absolute rates do not.
 */
async function bareAttemptsPerSecond(port: number, requests: number, concurrency: number): Promise<number> {
  const body = JSON.stringify(event());
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) {
        next += 1;
        await attemptDelivery({
          url: `http://127.0.0.1:${port}/ok`,
          secrets: ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw'],
          msgId: `msg_${next}`,
          body,
          ...LOCAL,
        });
      }
    }),
  );
  return Math.round(requests / (Number(process.hrtime.bigint() - started) / 1e9));
}

async function main(): Promise<void> {
  const events = arg('events', 100_000);
  const concurrency = arg('concurrency', DEFAULT_ENDPOINT_CONCURRENCY);
  const serverUrl = process.env.DATABASE_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
  const loadAverageAtStart = loadavg()[0];
  const receiver = await startReceiver();
  try {
    const bareBefore = await bareAttemptsPerSecond(receiver.port, Math.min(events, 10_000), concurrency);
    const alone = await scenario(serverUrl, receiver.port, events, false, concurrency);
    console.log('one endpoint        ', JSON.stringify(alone));
    const besideHanging = await scenario(serverUrl, receiver.port, events, true, concurrency);
    console.log('beside a hanging one', JSON.stringify(besideHanging));
    const bareAfter = await bareAttemptsPerSecond(receiver.port, Math.min(events, 10_000), concurrency);
    const bare = Math.round((bareBefore + bareAfter) / 2);
    const ratio = (n: number) => Math.round((n / bare) * 100) / 100;
    const result = {
      events,
      workers: 1,
      endpointConcurrency: concurrency,
      bareAttemptsPerSecond: { before: bareBefore, after: bareAfter },
      alone: { ...alone, vsBare: ratio(alone.deliveriesPerSecond) },
      besideHanging: { ...besideHanging, vsBare: ratio(besideHanging.deliveriesPerSecond) },
      healthyRateBesideHangingVsAlone:
        Math.round((besideHanging.deliveriesPerSecond / alone.deliveriesPerSecond) * 100) / 100,
      loadAverageAtStart,
      loadAverageAtEnd: loadavg()[0],
      cores: availableParallelism(),
      node: process.version,
      measuredAt: new Date().toISOString(),
    };
    writeFileSync(
      path.join(PACKAGE_ROOT, 'bench', 'webhooks-results.json'),
      `${JSON.stringify(result, null, 2)}\n`,
    );
    console.log(JSON.stringify(result, null, 2));
  } finally {
    receiver.child.stdin?.end();
    receiver.child.kill();
  }
}

await main();
process.exit(0);
