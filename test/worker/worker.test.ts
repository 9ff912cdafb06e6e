import { pino } from 'pino';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { SYNC_STREAM_JOB, syncStreamJobOptions } from '../../jobs/syncStream.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import type { StreamClient } from '../../src/streams/client.ts';
import { createEngineRunner } from '../../src/worker/engineRunner.ts';
import type { SyncRequest } from '../../src/worker/seams.ts';
import { type RunningWorker, startWorker } from '../../src/worker/worker.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { deletePrefix, testConfig, uniquePrefix } from './fixtures.ts';

const redisUrl = inject('redisUrl');
const logger = pino({ level: 'silent' });
const prefixes: string[] = [];
const running: RunningWorker[] = [];

afterAll(async () => {
  for (const w of running) await w.close(100);
  for (const p of prefixes) await deletePrefix(redisUrl, p);
});

function fresh(label: string) {
  const prefix = uniquePrefix(label);
  prefixes.push(prefix);
  return prefix;
}

async function start(prefix: string, overrides: Partial<Parameters<typeof startWorker>[0]> = {}) {
  const worker = await startWorker({
    config: testConfig({ redisUrl, worker: { concurrency: 2, shutdownTimeoutMs: 2000 } }),
    logger,
    prefix,
    registerSchedules: false,
    followOrders: false,
    runSync: async () => ({ recordsFetched: 0 }),
    ...overrides,
  });
  running.push(worker);
  return worker;
}

describe('worker', () => {
  it('runs sync jobs through the engine and deduplicates a queued stream and scope', async () => {
    const prefix = fresh('dedup');
    const calls: SyncRequest[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const worker = await start(prefix, {
      runSync: async (request) => {
        calls.push(request);
        await gate;
        return { recordsFetched: 1 };
      },
    });
    const payload = { stream: 'shipments' as const, scope: 'A1' };
    const first = await worker.queues.sync.add(SYNC_STREAM_JOB, payload, syncStreamJobOptions(payload));
    await waitFor('first running', () => calls.length === 1);
    // While one is active, adding the same stream and scope again is a no-op.
    const second = await worker.queues.sync.add(SYNC_STREAM_JOB, payload, syncStreamJobOptions(payload));
    expect(second.id).toBe(first.id);
    release();
    await waitFor(
      'completed',
      async () => (await worker.queues.sync.getJobCounts('completed')).completed === 1,
    );
    expect(calls).toEqual([{ stream: 'shipments', scope: 'A1', mode: 'incremental' }]);
  });

  it('a Retry-After from upstream pauses the queue for that long and retries without using an attempt', async () => {
    const prefix = fresh('retryafter');
    const times: number[] = [];
    const worker = await start(prefix, {
      runSync: async () => {
        times.push(Date.now());
        if (times.length === 1) throw Object.assign(new Error('429'), { retryAfterMs: 800 });
        return { recordsFetched: 0 };
      },
    });
    const payload = { stream: 'returns' as const, scope: 'A1' };
    const job = await worker.queues.sync.add(SYNC_STREAM_JOB, payload, { attempts: 1 });
    await waitFor(
      'retried and completed',
      async () => (await worker.queues.sync.getJob(job.id!))?.finishedOn !== undefined,
    );
    const done = await worker.queues.sync.getJob(job.id!);
    expect(await done?.getState()).toBe('completed');
    expect(times).toHaveLength(2);
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(700);
  });

  it('on shutdown stops taking jobs, releases a job that does not finish in time, and another worker finishes it', async () => {
    const prefix = fresh('shutdown');
    let invoked = 0;
    const first = await start(prefix, {
      runSync: () => {
        invoked += 1;
        return new Promise(() => {});
      },
    });
    const payload = { stream: 'inventory' as const, scope: 'S1' };
    const job = await first.queues.sync.add(SYNC_STREAM_JOB, payload, syncStreamJobOptions(payload));
    // Running in this worker, not merely active in Redis (the worker gets the job a moment later).
    await waitFor('running', () => invoked === 1);
    // The job never finishes, so close returning at all shows it gave the job back instead of
    // waiting for it (the test's timeout catches a close that waits).
    const { released } = await first.close(300);
    expect(released).toBe(1);
    running.splice(running.indexOf(first), 1);

    const finished: string[] = [];
    const second = await start(prefix, {
      runSync: async (request) => {
        finished.push(`${request.stream}:${request.scope}`);
        return { recordsFetched: 0 };
      },
    });
    await waitFor(
      'finished by the next worker',
      async () => (await second.queues.sync.getJob(job.id!))?.finishedOn !== undefined,
    );
    expect(finished).toEqual(['inventory:S1']);
  });

  it('never runs the same stream and scope twice at once, even as distinct jobs on two workers', async () => {
    const prefix = fresh('exclusive');
    const db = await createTestDatabase();
    try {
      let running = 0;
      let maxRunning = 0;
      let fetches = 0;
      const client = {
        listInvoices: async () => {
          running += 1;
          fetches += 1;
          maxRunning = Math.max(maxRunning, running);
          await new Promise((resolve) => setTimeout(resolve, 300));
          running -= 1;
          return { records: [], rejected: [] };
        },
      } as unknown as StreamClient;
      const config = loadConfig({ DATABASE_URL: db.url });
      // The real engine: its lease makes the second job's run answer skipped, and the worker
      // puts that job back to be retried shortly.
      const runSync = createEngineRunner({ pool: db.pool, client, config, logger });
      const a = await start(prefix, { runSync });
      await start(prefix, { runSync });
      // Two jobs without deduplication (as a scheduler's job and a manual one would be).
      const jobs = [
        await a.queues.sync.add(SYNC_STREAM_JOB, { stream: 'invoices', scope: 'A1' }),
        await a.queues.sync.add(SYNC_STREAM_JOB, { stream: 'invoices', scope: 'A1' }),
      ];
      await waitFor(
        'both done',
        async () =>
          (await Promise.all(jobs.map((j) => j.getState()))).every((state) => state === 'completed'),
        20_000,
      );
      expect(maxRunning).toBe(1);
      expect(fetches).toBeGreaterThanOrEqual(2);
      for (const job of jobs)
        expect((await a.queues.sync.getJob(job.id!))?.attemptsMade ?? 0).toBeLessThanOrEqual(1);
    } finally {
      await db.close();
    }
  });
});
