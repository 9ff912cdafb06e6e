import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { openUpstreamRateLimits, type UpstreamRateLimits } from '../../src/ratelimit/upstreamRateLimits.ts';
import { openUpstream } from '../../src/runtime/upstream.ts';
import { ok, type RecordingServer, startRecordingServer } from '../api/helpers/recordingServer.ts';
import { testClient } from '../api/helpers/testClient.ts';
import { cleanupRedisPrefix, testRedisPrefix } from '../helpers/redis.ts';
import { freePort, testConfig } from '../worker/fixtures.ts';

const redisUrl = inject('redisUrl');
const silent = pino({ level: 'silent' });
const prefixes: string[] = [];
const opened: UpstreamRateLimits[] = [];
let server: RecordingServer;

beforeAll(async () => {
  server = await startRecordingServer();
});
beforeEach(() => server.reset());
afterAll(async () => {
  for (const o of opened) o.close();
  await server?.close();
  const admin = new Redis(redisUrl);
  for (const prefix of prefixes) await cleanupRedisPrefix(admin, prefix);
  admin.disconnect();
});

function deployment(): string {
  const prefix = testRedisPrefix('upstream-limits');
  prefixes.push(prefix);
  return prefix;
}

/** The budgets one process of deployment `prefix` opens. */
async function processBudgets(prefix: string, rps = 50): Promise<UpstreamRateLimits> {
  const limits = await openUpstreamRateLimits({
    redis: redisUrl,
    prefix,
    rps,
    orderDetailRps: rps,
    waitMs: 2_000,
    logger: silent,
  });
  opened.push(limits);
  return limits;
}

/** A logger whose lines the test reads. */
function capturingLogger() {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

const inventory = { supplierId: 'S1' };
const rows = ok([{ sku: 'X1' }]);

describe('the upstream rate limit across processes', () => {
  it('a 429 with Retry-After seen by one process pauses the others for that long', async () => {
    const prefix = deployment();
    const seer = testClient(server.url, {
      rateLimits: (await processBudgets(prefix)).limits,
      retry: { retries: 0, minTimeoutMs: 1, maxTimeoutMs: 1 },
    });
    const other = testClient(server.url, { rateLimits: (await processBudgets(prefix)).limits });
    server.reply({ status: 429, headers: { 'retry-after': '1' } }, rows);
    await seer.listOwnedInventory(inventory).catch(() => undefined);
    await other.listOwnedInventory(inventory);
    const [first, second] = server.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(950);
  });

  it('a 429 without Retry-After pauses the others for the backoff of that attempt', async () => {
    const prefix = deployment();
    const seer = testClient(server.url, {
      rateLimits: (await processBudgets(prefix)).limits,
      retry: { retries: 0, minTimeoutMs: 600, maxTimeoutMs: 600 },
    });
    const other = testClient(server.url, { rateLimits: (await processBudgets(prefix)).limits });
    server.reply({ status: 429 }, rows);
    await seer.listOwnedInventory(inventory).catch(() => undefined);
    await other.listOwnedInventory(inventory);
    const [first, second] = server.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(570);
  });

  it('a process of another deployment (prefix) is not paused', async () => {
    const seer = testClient(server.url, {
      rateLimits: (await processBudgets(deployment())).limits,
      retry: { retries: 0, minTimeoutMs: 1, maxTimeoutMs: 1 },
    });
    const other = testClient(server.url, { rateLimits: (await processBudgets(deployment())).limits });
    server.reply({ status: 429, headers: { 'retry-after': '60' } }, rows);
    await seer.listOwnedInventory(inventory).catch(() => undefined);
    await other.listOwnedInventory(inventory);
    const [first, second] = server.requests;
    // Paused, it would have waited the whole minute; half of it only catches that, never a busy machine.
    expect(second!.at - first!.at).toBeLessThan(30_000);
  });

  it('openUpstream (sync --once, backfill, worker) draws from the shared budget of its queue prefix', async () => {
    const prefix = deployment();
    const { lines, logger } = capturingLogger();
    const config = testConfig({
      redisUrl,
      queuePrefix: prefix,
      sandbox: false,
      api: { ...testConfig().api, baseUrl: server.url, token: 'tok-upstream-test', rateLimitRps: 50 },
    });
    const upstream = await openUpstream(config, logger);
    try {
      // Another process of the deployment saw a Retry-After of 1 s just now.
      await (await processBudgets(prefix)).limits('GET Inventories/Owned').pause(1_000);
      const asked = Date.now();
      server.reply(rows);
      await upstream.client.listOwnedInventory(inventory);
      expect(server.requests[0]!.at - asked).toBeGreaterThanOrEqual(950);
      expect(lines.filter((l) => l.level >= 40)).toEqual([]);
    } finally {
      await upstream.close();
    }
  });

  it('without Redis, openUpstream warns once and paces the process with its own bucket', async () => {
    const { lines, logger } = capturingLogger();
    const config = testConfig({
      redisUrl: `redis://127.0.0.1:${await freePort()}`,
      queuePrefix: deployment(),
      sandbox: false,
      api: { ...testConfig().api, baseUrl: server.url, token: 'tok-upstream-test', rateLimitRps: 10 },
    });
    // Returning at all shows it gave up on Redis rather than waiting for it: the wait itself is
    // bounded by a connect timeout (1 s), and the test's timeout catches one that never ends.
    const upstream = await openUpstream(config, logger);
    try {
      server.reply(rows, rows, rows, rows);
      await Promise.all(Array.from({ length: 4 }, () => upstream.client.listOwnedInventory(inventory)));
      const at = server.requests.map((r) => r.at);
      expect(at[3]! - at[0]!).toBeGreaterThanOrEqual(280);
      const warnings = lines.filter((l) => l.level >= 40);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]!.msg).toMatch(/^upstream rate limit not shared with other processes: Redis at /);
    } finally {
      await upstream.close();
    }
  });
});
