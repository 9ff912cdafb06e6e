import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { SYNC_STREAM_JOB } from '../../jobs/syncStream.ts';
import type { Config } from '../../src/config/types.ts';
import { deploymentPrefix, readDeploymentTag } from '../../src/worker/deployment.ts';
import { QUEUE_NAMES } from '../../src/worker/queues.ts';
import { desiredSchedules, registerSchedules } from '../../src/worker/schedules.ts';
import type { SyncRequest } from '../../src/worker/seams.ts';
import { type RunningWorker, startWorker } from '../../src/worker/worker.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { deletePrefix, testConfig, uniquePrefix } from './fixtures.ts';

/**
 * Issue 24 item 4b: two deployments (two databases, two configurations) sharing one Redis
 * database and queue prefix. Each runs only its own sync jobs, and registering one's schedulers
 * leaves the other's alone.
 */

const redisUrl = inject('redisUrl');
const logger = pino({ level: 'silent' });
const shared = uniquePrefix('deployments');
const running: RunningWorker[] = [];
let redis: Redis;
let dbA: TestDatabase;
let dbB: TestDatabase;

beforeAll(async () => {
  redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  dbA = await createTestDatabase();
  dbB = await createTestDatabase();
});

afterAll(async () => {
  for (const w of running) await w.close(100);
  redis?.disconnect();
  await deletePrefix(redisUrl, shared);
  await dbA?.close();
  await dbB?.close();
});

const configA = testConfig({ redisUrl, supplierIds: ['SA'], accountNumbers: ['AA'] });
const configB = testConfig({ redisUrl, supplierIds: ['SB'], accountNumbers: ['AB'] });

/** A worker of the deployment whose database is `db`, recording the syncs it runs. */
async function startDeployment(db: TestDatabase, config: Config, ran: SyncRequest[]) {
  const worker = await startWorker({
    config: { ...config, worker: { ...config.worker, concurrency: 4, shutdownTimeoutMs: 2000 } },
    logger,
    prefix: deploymentPrefix(shared, await readDeploymentTag(db.pool)),
    sharedPrefix: shared,
    followOrders: false,
    runSync: async (request) => {
      ran.push(request);
      return { recordsFetched: 0 };
    },
  });
  running.push(worker);
  return worker;
}

const pairsOf = (config: Config) => desiredSchedules(config).map((d) => `${d.stream}:${d.scope}`);
const pairsRun = (ran: SyncRequest[]) => [...new Set(ran.map((r) => `${r.stream}:${r.scope}`))].sort();

describe('deployments sharing one Redis prefix', () => {
  it('each database has its own deployment tag; two connections to one database share it', async () => {
    const a = await readDeploymentTag(dbA.pool);
    expect(a).toMatch(/^d[0-9a-f]{12}$/);
    expect(await readDeploymentTag(dbB.pool)).not.toBe(a);
    // The same database by another spelling of its address.
    const again = new pg.Pool({ connectionString: dbA.url.replace('127.0.0.1', 'localhost'), max: 1 });
    try {
      expect(await readDeploymentTag(again)).toBe(a);
    } finally {
      await again.end();
    }
  });

  it("before: one shared queue, and registering one configuration removes the other one's schedulers", async () => {
    // What deployments did before each had its queues: the bug the queues per deployment remove.
    const queue = new Queue(QUEUE_NAMES.sync, { connection: redis, prefix: `${shared}-before` });
    try {
      await registerSchedules(queue, desiredSchedules(configA), { redis });
      const second = await registerSchedules(queue, desiredSchedules(configB), { redis });
      expect(second.removed.length).toBe(desiredSchedules(configA).length);
    } finally {
      await queue.obliterate({ force: true });
      await queue.close();
    }
  });

  it('each worker runs only its own configuration, and keeps its schedulers when the other registers', async () => {
    // Schedulers left in the shared queue by the old version: A's own, and one of a deployment
    // not upgraded yet.
    const old = new Queue(QUEUE_NAMES.sync, { connection: redis, prefix: shared });
    await registerSchedules(old, desiredSchedules(configA), { redis });
    await old.upsertJobScheduler('sync:shipments:OTHER', { every: 3_600_000 }, { name: SYNC_STREAM_JOB });

    const ranA: SyncRequest[] = [];
    const ranB: SyncRequest[] = [];
    const a = await startDeployment(dbA, configA, ranA);
    const b = await startDeployment(dbB, configB, ranB);
    // Each registration runs every new scheduler once now: each worker runs its whole configuration.
    await waitFor('A ran its pairs', () => pairsRun(ranA).length === pairsOf(configA).length);
    await waitFor('B ran its pairs', () => pairsRun(ranB).length === pairsOf(configB).length);
    expect(pairsRun(ranA)).toEqual(pairsOf(configA).sort());
    expect(pairsRun(ranB)).toEqual(pairsOf(configB).sort());
    expect(b.schedules?.removed).toEqual([]);
    expect(await a.missingSchedules()).toEqual([]);
    expect(await b.missingSchedules()).toEqual([]);

    // The old shared queue: A's schedulers retired (no old worker sends them to another database),
    // the other deployment's left alone.
    const left = (await old.getJobSchedulers(0, -1)).map((s) => s.key);
    await old.close();
    expect(left).toEqual(['sync:shipments:OTHER']);
  });

  it('a sync job for a scope outside the configuration is not run, not even in its own queue', async () => {
    // Only this worker takes A's jobs now.
    for (const w of running.splice(0)) await w.close(100);
    const ranA: SyncRequest[] = [];
    const worker = await startDeployment(dbA, configA, ranA);
    const job = await worker.queues.sync.add(SYNC_STREAM_JOB, { stream: 'shipments', scope: 'AB' });
    await waitFor('the job to finish', async () => (await job.getState()) === 'completed');
    expect(ranA.filter((r) => r.scope === 'AB')).toEqual([]);
    expect((await worker.queues.sync.getJob(job.id!))?.returnvalue).toMatchObject({ notConfigured: true });
  });
});
