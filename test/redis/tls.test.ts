import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { Queue } from 'bullmq';
import type { Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { openUpstreamRateLimits } from '../../src/ratelimit/upstreamRateLimits.ts';
import { createClientRedis, createWorkerRedis } from '../../src/worker/connections.ts';
import { QUEUE_NAMES } from '../../src/worker/queues.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { freePort } from '../worker/fixtures.ts';
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
  redisServerHasTls,
  requireRedisServer,
  sentinelMaster,
  startCluster,
  startSentinelGroup,
} from './localRedis.ts';
import { makeTestCertificates, type TestCertificates } from './tlsCertificates.ts';

/**
 * REDIS_URL=rediss://: a redis-server the test starts with TLS only (no plain port) and a password,
 * its certificate signed by a CA the test makes with openssl. The worker trusts it through
 * REDIS_TLS_CA_FILE and syncs everything; without the CA it refuses the server in one line that
 * never shows the password; REDIS_TLS_INSECURE skips verification only when set. A Cluster and a
 * Sentinel group served over TLS only (bus, replication and sentinel links too) carry BullMQ and
 * the shared limiter, the Sentinel one through a failover.
 */
const PASSWORD = 'tls-test-pw-91c2';
const run = promisify(execFile);
const RPS = 10;

requireRedisServer();
const TLS = redisServerHasTls();

let group: LocalRedisGroup | undefined;
let server: RedisProcess | undefined;
let certs: TestCertificates | undefined;
let h: DeploymentHarness | undefined;

beforeAll(async () => {
  if (!TLS) return;
  group = localRedisGroup('tls');
  certs = await makeTestCertificates(group.dir);
  const port = await freePort();
  server = await group.start([...tlsOnly(port), '--requirepass', PASSWORD], {
    port,
    ping: { password: PASSWORD, tls: { ca: readFileSync(certs.caFile) } },
  });
  h = await startDeploymentHarness(23, { suppliers: 1, winesPerSupplier: 8 });
}, 60_000);

afterAll(async () => {
  await h?.close();
  await group?.stop();
}, 60_000);

const url = () => `rediss://:${PASSWORD}@127.0.0.1:${server!.port}`;

/** redis-server arguments serving TLS only on `port`, with the test's certificate. */
function tlsOnly(port: number): string[] {
  const c = certs!;
  return [
    ...['--port', '0', '--tls-port', String(port), '--tls-auth-clients', 'no'],
    ...['--tls-cert-file', c.certFile, '--tls-key-file', c.keyFile, '--tls-ca-cert-file', c.caFile],
  ];
}

if (!TLS) {
  it.skip("skipped: this machine's redis-server was built without TLS support (redis-server --tls-port is refused)", () => {});
}

describe.runIf(TLS)('Redis over TLS (rediss://)', () => {
  it('verifies the server against REDIS_TLS_CA_FILE, refuses it without, and skips verification only when asked', async () => {
    const answer = async (env: Record<string, string>) => {
      const redis = createClientRedis(loadConfig(env).redis);
      // The TLS failure arrives as an error event; connect() then only says the connection closed.
      let failure: string | undefined;
      redis.on('error', (error: Error) => {
        failure ??= error.message;
      });
      try {
        await redis.connect();
        return await redis.ping();
      } catch (error) {
        return failure ?? (error as Error).message;
      } finally {
        redis.disconnect();
      }
    };
    expect(await answer({ REDIS_URL: url(), REDIS_TLS_CA_FILE: certs!.caFile })).toBe('PONG');
    expect(await answer({ REDIS_URL: url() })).toMatch(/self[- ]signed certificate/);
    expect(await answer({ REDIS_URL: url(), REDIS_TLS_INSECURE: 'true' })).toBe('PONG');
  });

  it('a worker without the CA exits 1 with one line, the password hidden', async () => {
    const worker = h!.spawn(h!.env({ REDIS_URL: url() }));
    const { code } = await worker.exited;
    expect(code).toBe(1);
    const problem = worker.lines.filter((l) => /unreachable/.test(l));
    expect(problem).toHaveLength(1);
    expect(problem[0]).toContain(`rediss://:***@127.0.0.1:${server!.port}`);
    expect(problem[0]).toMatch(/certificate/);
    expect(worker.lines.some((l) => l.includes(PASSWORD))).toBe(false);
  }, 60_000);

  it('a worker syncs, keeps the rate limit and delivers every event over TLS', async () => {
    const env = h!.env(
      { REDIS_URL: url(), REDIS_TLS_CA_FILE: certs!.caFile },
      { FULFILLMENT_RATE_LIMIT_RPS: String(RPS) },
    );
    const worker = h!.spawn(env);
    await worker.waitForLog(/worker started/, 60_000);
    await waitUntilSyncedAndDelivered(h!, 90_000);
    worker.child.kill('SIGTERM');
    expect((await worker.exited).code).toBe(0);
    expect(worker.lines.some((l) => l.includes(PASSWORD))).toBe(false);
    expect(worker.lines.filter((l) => /not shared/.test(l))).toEqual([]);
    expect(busiestSecond(h!.proxy.arrivals)).toBeLessThanOrEqual(RPS);
    const { events, requests } = await expectNothingLost(h!);
    console.info(
      `Redis over TLS: ${requests} upstream calls, busiest second ${busiestSecond(h!.proxy.arrivals)}, ${events} events delivered`,
    );
  }, 150_000);

  it('a Cluster over TLS (tls-cluster): BullMQ and the shared rate limiter run their multi-key scripts', async () => {
    const ca = readFileSync(certs!.caFile);
    const nodes = await startCluster(group!, 3, {
      serverArgs: (port) => [...tlsOnly(port), '--tls-cluster', 'yes'],
      cliArgs: ['--tls', '--cacert', certs!.caFile],
      ping: { tls: { ca } },
    });
    const config = loadConfig({
      REDIS_URL: 'rediss://127.0.0.1',
      REDIS_TLS_CA_FILE: certs!.caFile,
      REDIS_CLUSTER_NODES: nodes.map((n) => `127.0.0.1:${n.port}`).join(','),
    });
    const redis = createClientRedis(config.redis);
    await redis.connect();
    const queue = new Queue(QUEUE_NAMES.sync, { connection: redis, prefix: config.queuePrefix });
    const warnings: unknown[] = [];
    const logger: Pick<Logger, 'warn' | 'info'> = {
      warn: (...args: unknown[]) => {
        warnings.push(args);
      },
      info: () => undefined,
    };
    const limits = await openUpstreamRateLimits({
      redis: config.redis,
      prefix: config.queuePrefix,
      rps: 5,
      orderDetailRps: 5,
      waitMs: 5_000,
      logger,
    });
    try {
      await queue.add('probe', { n: 1 });
      expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 1 });
      expect(limits.shared).toBe(true);
      // Six requests at 5/s from the budget kept in the cluster: spaced (1000 + 50) / 5 ms apart.
      const limiter = limits.limits('GET Inventories/Owned');
      const started = Date.now();
      for (let i = 0; i < 6; i += 1) await limiter.acquire();
      expect(Date.now() - started).toBeGreaterThanOrEqual(5 * 210 - 30);
      // ...kept in the cluster (a script refused there would have fallen back to a local bucket, warning).
      expect(await redis.exists(`${config.queuePrefix}:ratelimit:global`)).toBe(1);
      expect(warnings).toEqual([]);
    } finally {
      limits.close();
      await queue.obliterate({ force: true });
      await queue.close();
      redis.disconnect();
    }
  }, 60_000);

  it('a Sentinel group over TLS: the master found through TLS sentinels, followed through a failover', async () => {
    const ca = readFileSync(certs!.caFile);
    const tls = { serverArgs: tlsOnly, cliArgs: ['--tls', '--cacert', certs!.caFile], ping: { tls: { ca } } };
    const { master, replica, sentinel, cli } = await startSentinelGroup(group!, 'tlsmaster', PASSWORD, tls);
    const config = loadConfig({
      REDIS_URL: `rediss://:${PASSWORD}@unused`,
      REDIS_TLS_CA_FILE: certs!.caFile,
      REDIS_SENTINELS: `127.0.0.1:${sentinel.port}`,
      REDIS_SENTINEL_MASTER: 'tlsmaster',
    });
    const redis = createWorkerRedis(config.redis);
    redis.on('error', () => {});
    const queue = new Queue(QUEUE_NAMES.sync, { connection: redis, prefix: 'tls-sentinel' });
    // Connection errors while the master is down are expected here; the assertions say the rest.
    queue.on('error', () => {});
    try {
      await queue.add('before', { n: 1 });
      await waitFor(
        'the job to reach the replica',
        async () =>
          (
            await run('redis-cli', [
              ...cli,
              '-p',
              String(replica.port),
              '--no-auth-warning',
              '-a',
              PASSWORD,
              'dbsize',
            ])
          ).stdout.trim() !== '0',
        10_000,
        50,
      );
      await master.kill();
      await waitFor(
        'the sentinel to promote the replica',
        async () => (await sentinelMaster(sentinel, 'tlsmaster', cli)) === `127.0.0.1:${replica.port}`,
        20_000,
        100,
      );
      // The same connection carries on against the new master; what the old one had is there.
      await queue.add('after', { n: 2 });
      expect(await queue.getJobCounts('waiting')).toEqual({ waiting: 2 });
    } finally {
      await queue.close();
      redis.disconnect();
    }
  }, 60_000);
});
