import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { BACKFILL_WINDOW_JOB } from '../../jobs/backfillWindow.ts';
import { SYNC_STREAM_JOB, syncStreamJobOptions } from '../../jobs/syncStream.ts';
import { QUEUE_NAMES } from '../../src/worker/queues.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { startWorkerHarness, type WorkerHarness } from './workerHarness.ts';

/**
 * /readyz must answer within its timeout while every sync slot is busy: here each of the worker's
 * sync and backfill slots holds a Postgres connection, blocked taking its stream's lease: the
 * test inserted the lease rows in a transaction it keeps open, so each run's upsert of its lease
 * waits on that row. Readiness (and webhooks) must not depend on those connections.
 */
const CONCURRENCY = 2;

let harness: WorkerHarness | undefined;
let locker: pg.PoolClient | undefined;
let backfill: Queue | undefined;
let redis: Redis | undefined;

beforeAll(async () => {
  harness = await startWorkerHarness('readyz-busy', { seed: 3, historyDays: 1 });
}, 120_000);

afterAll(async () => {
  await locker?.query('ROLLBACK').catch(() => undefined);
  locker?.release();
  await backfill?.close();
  redis?.disconnect();
  await harness?.close();
}, 180_000);

describe('/readyz while every sync slot is busy', () => {
  it('answers 200 within its timeout', async () => {
    const h = harness!;
    const account = h.sim.world.accounts[0]!.number;
    const supplier = h.sim.world.suppliers[0]!.id;
    const busy = [
      { queue: 'sync', stream: 'shipments', scope: account },
      { queue: 'sync', stream: 'returns', scope: account },
      { queue: 'backfill', stream: 'invoices', scope: account },
      { queue: 'backfill', stream: 'transfers_out', scope: supplier },
    ] as const;
    locker = await h.t.pool.connect();
    await locker.query('BEGIN');
    for (const b of busy) {
      await locker.query(
        `INSERT INTO sync.stream_leases (stream, scope, holder, fence, expires_at)
         VALUES ($1, $2, 'test', 1, now() - interval '1 hour')`,
        [b.stream, b.scope],
      );
    }
    const env = h.env({ ...h.onDemand(), WORKER_CONCURRENCY: String(CONCURRENCY) });
    const worker = h.spawn(env);
    await worker.waitForLog(/worker started/, 60_000);
    const port = Number(
      /"httpPort":(\d+)/.exec(worker.lines.find((l) => /worker started/.test(l)) ?? '')?.[1],
    );

    redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
    backfill = new Queue(QUEUE_NAMES.backfill, { connection: redis, prefix: h.queue.opts.prefix });
    const to = new Date();
    const from = new Date(to.getTime() - 86_400_000);
    for (const b of busy) {
      const payload = { stream: b.stream, scope: b.scope };
      if (b.queue === 'sync') await h.queue.add(SYNC_STREAM_JOB, payload, syncStreamJobOptions(payload));
      else
        await backfill.add(BACKFILL_WINDOW_JOB, {
          ...payload,
          from: from.toISOString(),
          to: to.toISOString(),
          emitEvents: false,
          backfillId: `busy-${b.stream}`,
        });
    }
    // Every slot (CONCURRENCY sync + CONCURRENCY backfill) holds a connection waiting on a lease row.
    await waitFor(
      'every slot blocked on its stream lease',
      async () => {
        const res = await h.t.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_stat_activity
            WHERE datname = $1 AND wait_event_type = 'Lock' AND query LIKE '%stream_leases%'`,
          [h.t.name],
        );
        return res.rows[0]!.n === busy.length;
      },
      60_000,
    );

    // Each check that misses its own timeout (src/http/app.ts) answers "no answer within ... ms"
    // instead of "ok", so an all-"ok" body is the proof it answered in time.
    const answer = await fetch(`http://127.0.0.1:${port}/readyz`);
    const body = await answer.json();
    expect({ status: answer.status, body }).toEqual({
      status: 200,
      body: { status: 'ready', checks: { postgres: 'ok', redis: 'ok', schedules: 'ok' } },
    });

    await locker.query('ROLLBACK');
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
  }, 180_000);
});
