import { type ChildProcess, spawn } from 'node:child_process';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { listAttempts } from '../../src/webhooks/views/deliveries.ts';
import { QUEUE_NAMES } from '../../src/worker/queues.ts';
import { desiredSchedules } from '../../src/worker/schedules.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { LOCAL_RECEIVERS, startReceiver, testEvent } from '../webhooks/harness.ts';
import { deletePrefix, freePort, testConfig } from './fixtures.ts';
import type { WorkerProcess } from './spawnWorker.ts';
import { startWorkerHarness, type WorkerHarness } from './workerHarness.ts';

const redisUrl = inject('redisUrl');
let harness: WorkerHarness;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
const cleanups: Array<() => unknown> = [];

beforeAll(async () => {
  harness = await startWorkerHarness('heal', { seed: 5, historyDays: 1 });
  receiver = await startReceiver();
}, 120_000);
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await receiver?.close();
  await harness?.close();
});

/** The environment of a worker syncing the simulator's whole world. */
function workerEnv(extra: Record<string, string> = {}): Record<string, string> {
  const { sim } = harness;
  return harness.env({
    FULFILLMENT_SUPPLIER_IDS: sim.world.suppliers.map((s) => s.id).join(','),
    FULFILLMENT_ACCOUNT_NUMBERS: sim.world.accounts.map((a) => a.number).join(','),
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    ...extra,
  });
}

/** How many job schedulers that world wants. */
function wantedSchedules(): number {
  const { sim } = harness;
  return desiredSchedules(
    testConfig({
      supplierIds: sim.world.suppliers.map((s) => s.id),
      accountNumbers: sim.world.accounts.map((a) => a.number),
    }),
  ).length;
}

/** The port the worker serves /readyz on (HTTP_PORT=0), from its start line. */
async function readyzOf(worker: WorkerProcess): Promise<() => Promise<{ status: number; body: string }>> {
  await worker.waitForLog(/worker started/, 60_000);
  const line = worker.lines.find((l) => l.includes('worker started')) ?? '';
  const port = JSON.parse(line).httpPort as number;
  return async () => {
    const response = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(5_000) });
    return { status: response.status, body: await response.text() };
  };
}

/** A redis-server of this test alone, without persistence: stopping it loses every key. */
function startRedisServer(port: number): ChildProcess {
  const server = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  cleanups.push(() => server.kill('SIGKILL'));
  return server;
}

/** How many scheduled streams x scopes started a run after `at`. */
async function scheduledPairsRunSince(at: number): Promise<number> {
  const { rows } = await harness.t.pool.query(
    // A run that found nothing new writes no run row, only its cursor's stamp (last_polled_at).
    `SELECT count(*)::int AS n
       FROM (SELECT stream, scope FROM sync.cursors WHERE last_polled_at > $1
             UNION SELECT stream, scope FROM sync.runs WHERE started_at > $1) r
      WHERE stream <> 'orders'`,
    [new Date(at)],
  );
  return rows[0].n;
}

describe('a running worker heals itself', () => {
  it('through a Redis restart without its data: one warning per reconnect attempt, schedules back, ready, syncing', async () => {
    const port = await freePort();
    const privateUrl = `redis://127.0.0.1:${port}`;
    let server = startRedisServer(port);
    const probe = new Redis(privateUrl, { maxRetriesPerRequest: null, lazyConnect: true });
    probe.on('error', () => {}); // this test's own probe; the outage is expected
    cleanups.push(() => probe.disconnect());
    await waitFor('private redis up', async () => (await probe.ping().catch(() => '')) === 'PONG');

    const worker = harness.spawn(workerEnv({ REDIS_URL: privateUrl }));
    const readyz = await readyzOf(worker);
    await waitFor('ready', async () => (await readyz()).status === 200, 30_000);

    const before = worker.lines.length;
    server.kill('SIGKILL');
    await worker.waitForLog(/reconnect attempt 5 /, 30_000);
    expect((await readyz()).status).toBe(503);
    const during = worker.lines.slice(before);
    // No stack trace; apart from info lines (runs that were under way finish), only the warnings,
    // one per attempt, numbered 1, 2, 3 ...
    expect(during.filter((l) => /Unhandled error event|^\s+at /.test(l))).toEqual([]);
    // The shared upstream rate limit says once per outage that it paces in-process meanwhile.
    const fallback = during.filter((l) => l.includes('shared upstream rate limit unavailable'));
    expect(fallback.length).toBeLessThanOrEqual(1);
    const notInfo = during.filter((l) => !l.startsWith('{"level":30,') && !fallback.includes(l));
    expect(notInfo.map((l) => Number(/reconnect attempt (\d+) /.exec(l)?.[1])).slice(0, 5)).toEqual([
      1, 2, 3, 4, 5,
    ]);
    expect(notInfo.filter((l) => !/reconnect attempt \d+ /.test(l))).toEqual([]);

    server = startRedisServer(port);
    const restartedAt = Date.now();
    await waitFor('ready again', async () => (await readyz()).status === 200, 60_000);
    const secondsToReady = (Date.now() - restartedAt) / 1000;
    const queue = new Queue(QUEUE_NAMES.sync, {
      connection: probe,
      prefix: harness.queue.opts.prefix,
    });
    cleanups.push(() => queue.close());
    expect(await queue.getJobSchedulersCount()).toBe(wantedSchedules());
    await waitFor(
      'every schedule syncing again',
      async () => (await scheduledPairsRunSince(restartedAt)) === wantedSchedules(),
      60_000,
    );
    expect(worker.lines.some((l) => /Redis reachable again/.test(l))).toBe(true);
    console.log(
      `redis restart without data: ready again ${secondsToReady} s after Redis came back; ${notInfo.length} warning lines during the outage`,
    );
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
  }, 180_000);

  it('after every key of its prefix is deleted: /readyz 503 until the schedules are back, syncing resumes, no pending webhook lost', async () => {
    const prefix = harness.env().FULFILLMENT_QUEUE_PREFIX as string;
    const worker = harness.spawn(workerEnv());
    const readyz = await readyzOf(worker);
    await waitFor('ready', async () => (await readyz()).status === 200, 30_000);

    // Pending deliveries to a receiver that fails until the keys are gone.
    const endpoint = await addEndpoint(harness.t.pool, { url: receiver.url('/heal') }, LOCAL_RECEIVERS);
    let recovered = false;
    const acknowledged: string[] = [];
    receiver.on('/heal', endpoint.secret, (request) => {
      if (!recovered) return { status: 503 };
      acknowledged.push(request.headers['webhook-id'] ?? '');
      return { status: 200 };
    });
    const events = Array.from({ length: 6 }, () => testEvent());
    await writeEvents(harness.t.pool, events, { stream: 'shipments', scope: 'heal', suppressed: false });
    await waitFor(
      'first attempts failed',
      async () => {
        const attempts = await Promise.all(events.map((e) => listAttempts(harness.t.pool, e.id)));
        return attempts.every((list) => list.length === 1 && list[0]?.status === 'failed');
      },
      30_000,
    );

    const flushedAt = Date.now();
    await deletePrefix(redisUrl, prefix);
    recovered = true;
    expect((await readyz()).status).toBe(503);
    expect((await readyz()).body).toMatch(/job scheduler\(s\) missing from Redis/);
    const secondsSince = async (what: string, check: () => Promise<boolean>) => {
      await waitFor(what, check, 60_000);
      return (Date.now() - flushedAt) / 1000;
    };
    const [secondsToReady, secondsToSync, secondsToDeliver] = await Promise.all([
      secondsSince('ready again', async () => (await readyz()).status === 200),
      secondsSince(
        'every schedule syncing again',
        async () => (await scheduledPairsRunSince(flushedAt)) === wantedSchedules(),
      ),
      secondsSince('every pending webhook delivered', async () => {
        const attempts = await Promise.all(events.map((e) => listAttempts(harness.t.pool, e.id)));
        return attempts.every((list) => list.some((a) => a.status === 'succeeded'));
      }),
    ]);
    expect(await harness.queue.getJobSchedulersCount()).toBe(wantedSchedules());
    // Each was still pending in Redis when the keys went (its retry came after), and is delivered once.
    const { rows } = await harness.t.pool.query(
      `SELECT event_id, min(attempted_at) AS at, count(*)::int AS n FROM sync.webhook_deliveries
        WHERE event_id = ANY($1) AND status = 'succeeded' GROUP BY event_id`,
      [events.map((e) => e.id)],
    );
    expect(rows).toHaveLength(events.length);
    expect(rows.every((row) => row.n === 1 && new Date(row.at).getTime() >= flushedAt)).toBe(true);
    expect([...acknowledged].sort()).toEqual(events.map((e) => e.id).sort());
    console.log(
      `prefix deleted: ready again after ${secondsToReady} s, syncing after ${secondsToSync} s, webhooks delivered after ${secondsToDeliver} s`,
    );
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
  }, 180_000);
});
