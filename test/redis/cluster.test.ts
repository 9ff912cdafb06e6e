import { Queue } from 'bullmq';
import { Cluster } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLUSTER_DEFAULT_QUEUE_PREFIX } from '../../src/config/redisSettings.ts';
import { deploymentPrefix, readDeploymentTag } from '../../src/worker/deployment.ts';
import { QUEUE_NAMES } from '../../src/worker/queues.ts';
import {
  busiestSecond,
  type DeploymentHarness,
  expectNothingLost,
  startDeploymentHarness,
  waitUntilSyncedAndDelivered,
} from './deploymentHarness.ts';
import { type LocalRedisGroup, localRedisGroup, type RedisProcess, startCluster } from './localRedis.ts';

/**
 * Two workers on a real Redis Cluster of three masters the test creates: they sync the simulator,
 * share one upstream budget kept in the cluster, deliver every event, and every key they write
 * sits in the one slot of the hash-tagged default prefix (so BullMQ's and the limiter's multi-key
 * scripts run at all: a cluster refuses scripts whose keys span slots).
 */
const RPS = 10;

let group: LocalRedisGroup | undefined;
let nodes: RedisProcess[] = [];
let h: DeploymentHarness | undefined;

beforeAll(async () => {
  group = localRedisGroup('cluster');
  nodes = await startCluster(group);
  h = await startDeploymentHarness(21);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await group?.stop();
}, 60_000);

describe('a worker deployment on a Redis Cluster', () => {
  it('syncs, keeps the shared rate limit and delivers every event, all keys in one slot', async () => {
    const clusterNodes = nodes.map((n) => `127.0.0.1:${n.port}`).join(',');
    const env = h!.env(
      { REDIS_CLUSTER_NODES: clusterNodes },
      { FULFILLMENT_RATE_LIMIT_RPS: String(RPS), WORKER_CONCURRENCY: '2' },
    );
    const workers = [h!.spawn(env), h!.spawn(env)];
    await Promise.all(workers.map((w) => w.waitForLog(/worker started/, 60_000)));
    await waitUntilSyncedAndDelivered(h!, 90_000);

    const cluster = new Cluster(nodes.map((n) => ({ host: '127.0.0.1', port: n.port })));
    try {
      const queue = new Queue(QUEUE_NAMES.sync, {
        connection: cluster,
        prefix: deploymentPrefix(CLUSTER_DEFAULT_QUEUE_PREFIX, await readDeploymentTag(h!.t.pool)),
      });
      expect(await queue.getJobCounts('failed')).toEqual({ failed: 0 });
      expect(await queue.getJobSchedulersCount()).toBe(h!.pairs);
      await queue.close();
      // Every key of the deployment hashes to the slot of the prefix's tag, so all sit on one master.
      const keysPerNode = await Promise.all(cluster.nodes('master').map((node) => node.dbsize()));
      expect(keysPerNode.filter((n) => n > 0)).toHaveLength(1);
    } finally {
      cluster.disconnect();
    }

    for (const w of workers) w.child.kill('SIGTERM');
    for (const w of workers) expect((await w.exited).code).toBe(0);
    const lines = workers.flatMap((w) => w.lines);
    // The budget was the shared one in the cluster, never a per-process fallback.
    expect(lines.filter((l) => /not shared|rate limit unavailable|CROSSSLOT/.test(l))).toEqual([]);
    expect(busiestSecond(h!.proxy.arrivals)).toBeLessThanOrEqual(RPS);
    const { events, requests } = await expectNothingLost(h!);
    console.info(
      `Redis Cluster (3 masters), two workers at ${RPS}/s: ${requests} upstream calls, busiest second ${busiestSecond(h!.proxy.arrivals)}, ${events} events delivered`,
    );
  }, 150_000);
});
