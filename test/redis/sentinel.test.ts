import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_NAMES } from '../../src/config/types.ts';
import { waitFor } from '../helpers/waitFor.ts';
import {
  busiestSecond,
  type DeploymentHarness,
  expectNothingLost,
  startDeploymentHarness,
  waitUntilSyncedAndDelivered,
} from './deploymentHarness.ts';
import {
  type LocalRedisGroup,
  localRedisGroup,
  type RedisProcess,
  sentinelMaster,
  startSentinelGroup,
} from './localRedis.ts';

/**
 * A worker on a real Sentinel group (one master, one replica, one sentinel, all started by the
 * test) survives the master's death in the middle of its first sync: the sentinel promotes the
 * replica, the worker's connections follow, and nothing is lost: the warehouse equals the
 * simulator's truth, every cursor advanced and every event reached the receiver.
 */
const MASTER = 'fsmaster';
const PASSWORD = 'sentinel-test-pw-7f3a';
const RPS = 10;

let group: LocalRedisGroup | undefined;
let redis: { master: RedisProcess; replica: RedisProcess; sentinel: RedisProcess } | undefined;
let h: DeploymentHarness | undefined;

beforeAll(async () => {
  group = localRedisGroup('sentinel');
  redis = await startSentinelGroup(group, MASTER, PASSWORD);
  h = await startDeploymentHarness(22);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await group?.stop();
}, 60_000);

async function syncedPairs(): Promise<number> {
  const { rows } = await h!.t.pool.query(
    'SELECT count(*) AS n FROM sync.cursors WHERE last_success_at IS NOT NULL',
  );
  return Number(rows[0].n);
}

describe('a worker on a Redis Sentinel group', () => {
  it('survives a failover (master killed mid-sync) with no event, delivery or cursor lost', async () => {
    const { master, replica, sentinel } = redis!;
    const env = h!.env(
      {
        // Host and port are not used with Sentinel; the password is the data nodes'.
        REDIS_URL: `redis://:${PASSWORD}@localhost:6379`,
        REDIS_SENTINELS: `127.0.0.1:${sentinel.port}`,
        REDIS_SENTINEL_MASTER: MASTER,
      },
      {
        FULFILLMENT_RATE_LIMIT_RPS: String(RPS),
        WORKER_CONCURRENCY: '2',
        // Replication is asynchronous: a job queued in the last instant before the master died (an
        // orders follow-up of a shipments sync, say) may be missing on the replica, and a queued
        // sync that vanished runs at its stream's next cadence. One minute keeps that in the test.
        FULFILLMENT_STREAMS: JSON.stringify(
          Object.fromEntries(
            STREAM_NAMES.filter((s) => s !== 'orders').map((s) => [s, { cadenceMinutes: 1 }]),
          ),
        ),
      },
    );
    const worker = h!.spawn(env);
    await worker.waitForLog(/worker started/, 60_000);
    expect(await sentinelMaster(sentinel, MASTER)).toBe(`127.0.0.1:${master.port}`);

    // Some streams and scopes done, others still running or queued: the failover hits work in flight.
    await waitFor('the first syncs to finish', async () => (await syncedPairs()) >= 3, 60_000, 100);
    const syncedAtFailover = await syncedPairs();
    await master.kill();
    await waitFor(
      'the sentinel to promote the replica',
      async () => (await sentinelMaster(sentinel, MASTER)) === `127.0.0.1:${replica.port}`,
      20_000,
      100,
    );
    expect(syncedAtFailover).toBeLessThan(h!.pairs);

    // A job running when the master died may have lost its completion with it: it then re-runs
    // once its lock expires and the stalled check finds it (lock 30 s, check every 30 s).
    try {
      await waitUntilSyncedAndDelivered(h!, 150_000);
    } catch (error) {
      console.log(worker.lines.slice(-80).join('\n'));
      console.log(
        JSON.stringify(
          (await h!.t.pool.query('SELECT stream, scope, last_success_at FROM sync.cursors')).rows,
        ),
      );
      console.log(
        JSON.stringify(
          (
            await h!.t.pool.query(
              'SELECT stream, scope, status, error, started_at FROM sync.runs ORDER BY id DESC LIMIT 10',
            )
          ).rows,
        ),
      );
      throw error;
    }
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);

    // The connections followed the failover rather than the worker restarting or giving up.
    expect(worker.lines.filter((l) => /worker started/.test(l))).toHaveLength(1);
    expect(worker.lines.some((l) => l.includes(PASSWORD))).toBe(false);
    // A failover is an outage like any other: reconnect warnings, not a flood of "Redis error" lines.
    expect(worker.lines.filter((l) => l.includes('"msg":"Redis error"'))).toEqual([]);
    expect(worker.lines.filter((l) => /not shared/.test(l))).toEqual([]);
    expect(busiestSecond(h!.proxy.arrivals)).toBeLessThanOrEqual(RPS);
    const { events, requests } = await expectNothingLost(h!);
    console.info(
      `Redis Sentinel failover after ${syncedAtFailover}/${h!.pairs} streams and scopes: ${requests} upstream calls, busiest second ${busiestSecond(h!.proxy.arrivals)}, ${events} events delivered`,
    );
  }, 240_000);
});
