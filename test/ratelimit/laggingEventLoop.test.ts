import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createFulfillmentClient, type FulfillmentClient, staticTokenProvider } from '../../src/api/index.ts';
import { openUpstreamRateLimits, type UpstreamRateLimits } from '../../src/ratelimit/upstreamRateLimits.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { perSecond } from '../helpers/countingProxy.ts';
import { type CountingProxyProcess, startCountingProxyProcess } from '../helpers/countingProxyProcess.ts';
import { cleanupRedisPrefix, testRedisPrefix } from '../helpers/redis.ts';
import { SIMULATOR_TOKEN } from '../helpers/syncHarness.ts';
import { waitFor } from '../helpers/waitFor.ts';

/**
 * The shared rate limit under a lagging event loop: with every timer and reply about 30 ms late (a
 * busy process), requests waiting for the budget still use it, at FULFILLMENT_RATE_LIMIT_RPS=10 at
 * least 9 requests/s counted where the upstream receives them. A late request sends on its slot
 * instead of reserving fresh ones and leaving its own unused.
 */

const RPS = 10;
const MEASURE_S = 8;
const LAG_MS = 30;
const redisUrl = inject('redisUrl');
const prefix = testRedisPrefix('lagging-loop');

let sim: RunningSimulator;
let proxy: CountingProxyProcess;
let budgets: UpstreamRateLimits;
let client: FulfillmentClient;
/** Warnings of the budgets: a Redis outage (the fallback paces this process alone) is one. */
const warnings: string[] = [];

beforeAll(async () => {
  sim = await startSimulator({ seed: 3, clock: 'manual' });
  // Counted in its own process: this one's event loop is the one made to lag.
  proxy = await startCountingProxyProcess(sim.url);
  budgets = await openUpstreamRateLimits({
    redis: redisUrl,
    prefix,
    rps: RPS,
    orderDetailRps: RPS,
    waitMs: 2_000,
    logger: pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) }),
  });
  expect(budgets.shared).toBe(true);
  client = createFulfillmentClient({
    baseUrl: proxy.url,
    tokenProvider: staticTokenProvider(SIMULATOR_TOKEN),
    timeoutMs: 10_000,
    rateLimitRps: RPS,
    rateLimits: budgets.limits,
  });
});

afterAll(async () => {
  budgets?.close();
  await proxy?.close();
  await sim?.close();
  const admin = new Redis(redisUrl);
  await cleanupRedisPrefix(admin, prefix);
  admin.disconnect();
});

/** Blocks the event loop for `ms` every `everyMs`: every timer and reply due meanwhile runs late. */
function lagEventLoop(ms: number, everyMs: number): () => void {
  const timer = setInterval(() => {
    const until = performance.now() + ms;
    while (performance.now() < until) {
      // busy: the event loop is held, as by a large JSON.parse or a diff of many rows
    }
  }, everyMs);
  return () => clearInterval(timer);
}

describe('shared rate limit with a lagging event loop', () => {
  it(`sends at least ${RPS * 0.9} requests/s at ${RPS}/s while work is waiting and timers fire ${LAG_MS} ms late`, async () => {
    const supplierId = sim.truth().suppliers[0]!;
    let stop = false;
    const stopLag = lagEventLoop(LAG_MS, LAG_MS + 10);
    // Sixteen callers, so some are always waiting for the budget (more work than it allows) even
    // while the others wait for answers from the simulator on this same lagging loop.
    const callers = Array.from({ length: 16 }, async () => {
      while (!stop) await client.listOwnedInventory({ supplierId, onHandOnly: false });
    });
    let from = 0;
    try {
      await waitFor('the first upstream request', () => proxy.arrivals.length > 0);
      // Whole seconds, from the second after the first full one (the callers have all started).
      from = (Math.floor(proxy.arrivals[0]! / 1000) + 2) * 1000;
      await waitFor('the measured seconds', () => Date.now() > from + MEASURE_S * 1000 + 200, 30_000);
    } finally {
      stop = true;
      stopLag();
      await Promise.all(callers);
    }
    const counts = perSecond(proxy.arrivals, from, MEASURE_S);
    const total = counts.reduce((a, b) => a + b, 0);
    console.info(
      `lagging loop (${LAG_MS} ms) at ${RPS}/s: ${total} requests in ${MEASURE_S} s, per second ${counts.join(' ')}, Redis outages ${warnings.length}`,
    );
    expect(total / MEASURE_S).toBeGreaterThanOrEqual(RPS * 0.9);
    // And the budget kept on average. Per calendar second the count is not asserted here: on a
    // loaded machine the process stalls between a send's approval and its socket write, and the
    // proxy stamps arrivals late, so arrivals shift across a second's edge (one at each end of the
    // measured span at most); the per-second rule is unit-tested in test/api/rateLimiter.test.ts.
    expect(total).toBeLessThanOrEqual(MEASURE_S * RPS + 2);
  }, 60_000);
});
