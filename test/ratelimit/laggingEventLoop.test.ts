import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  createFulfillmentClient,
  type FulfillmentClient,
  NO_RATE_LIMIT,
  type RateLimits,
  staticTokenProvider,
} from '../../src/api/index.ts';
import { openUpstreamRateLimits, type UpstreamRateLimits } from '../../src/ratelimit/upstreamRateLimits.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { busiestWindow } from '../chaos/lib/rateWindows.ts';
import { perSecond } from '../helpers/countingProxy.ts';
import { type CountingProxyProcess, startCountingProxyProcess } from '../helpers/countingProxyProcess.ts';
import { cleanupRedisPrefix, testRedisPrefix } from '../helpers/redis.ts';
import { SIMULATOR_TOKEN } from '../helpers/syncHarness.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { lagEventLoop } from './lagEventLoop.ts';

/**
 * Issue 20 item 6 under its real conditions: this process's event loop is blocked 30 ms out of
 * every 40 (a busy loop on an interval: every timer and every reply due meanwhile runs up to 30 ms
 * late), two budgets on two Redis connections (two processes of one deployment) each have eight
 * callers with work always waiting, and the upstream counts arrivals in a proxy of its own process,
 * whose loop does not lag. At FULFILLMENT_RATE_LIMIT_RPS=10 at least 9 requests/s must arrive, and
 * never more than 10 in any sliding second. (The limiter before the send log: 39 in 8 s.)
 */

const RPS = 10;
const MEASURE_S = 8;
const LAG_MS = 30;
const redisUrl = inject('redisUrl');
const prefix = testRedisPrefix('lagging-loop');

let sim: RunningSimulator;
let proxy: CountingProxyProcess;
let budgets: UpstreamRateLimits[] = [];
let clients: FulfillmentClient[] = [];
/** Warnings of the budgets: a Redis outage (the fallback paces this process alone) is one. */
const warnings: string[] = [];
/** Arrivals of the warm-up, before the measured ones. */
let warmArrivals = 0;

beforeAll(async () => {
  // A small world: short answers, so this process's own work stays small beside the busy loop.
  sim = await startSimulator({
    seed: 3,
    clock: 'manual',
    volume: { suppliers: 1, winesPerSupplier: 2, historyDays: 1 },
  });
  proxy = await startCountingProxyProcess(sim.url);
  const logger = pino({ level: 'warn' }, { write: (line: string) => void warnings.push(line) });
  budgets = await Promise.all(
    [1, 2].map(() =>
      openUpstreamRateLimits({
        redis: redisUrl,
        prefix,
        rps: RPS,
        orderDetailRps: RPS,
        waitMs: 2_000,
        logger,
      }),
    ),
  );
  expect(budgets.map((b) => b.shared)).toEqual([true, true]);
  clients = budgets.map((b) => clientOf(b.limits));
  // Sixteen requests at once, unlimited, before the lag starts: they open the connections the
  // measured ones reuse. A connection opened on a lagging loop takes more turns of it, each up to
  // 30 ms late, between the limiter letting the request go and its first byte leaving: that is the
  // transport's delay, beyond what a limiter counting in Redis can see (see sendWindow.ts).
  const warm = clientOf(() => NO_RATE_LIMIT);
  const supplierId = sim.truth().suppliers[0]!;
  await Promise.all(
    Array.from({ length: 16 }, () => warm.listOwnedInventory({ supplierId, onHandOnly: false })),
  );
  warmArrivals = proxy.arrivals.length;
});

function clientOf(rateLimits: RateLimits): FulfillmentClient {
  return createFulfillmentClient({
    baseUrl: proxy.url,
    tokenProvider: staticTokenProvider(SIMULATOR_TOKEN),
    timeoutMs: 10_000,
    rateLimitRps: RPS,
    rateLimits,
  });
}

afterAll(async () => {
  for (const b of budgets) b.close();
  await proxy?.close();
  await sim?.close();
  const admin = new Redis(redisUrl);
  await cleanupRedisPrefix(admin, prefix);
  admin.disconnect();
});

describe('shared rate limit with a lagging event loop', () => {
  it(`sends at least ${RPS * 0.9} requests/s at ${RPS}/s while work waits and timers fire up to ${LAG_MS} ms late`, async () => {
    const supplierId = sim.truth().suppliers[0]!;
    let stop = false;
    const stopLag = lagEventLoop(LAG_MS, LAG_MS + 10);
    // Eight callers per process: some always wait for the budget, even while others wait for
    // their answers (which this lagging loop also reads late).
    const callers = clients.flatMap((client) =>
      Array.from({ length: 8 }, async () => {
        while (!stop) await client.listOwnedInventory({ supplierId, onHandOnly: false });
      }),
    );
    let from = 0;
    try {
      await waitFor('the first upstream request', () => proxy.arrivals.length > warmArrivals);
      // Whole seconds, from the second after the first full one (every caller has started).
      from = (Math.floor(proxy.arrivals[warmArrivals]! / 1000) + 2) * 1000;
      await waitFor('the measured seconds', () => Date.now() > from + MEASURE_S * 1000 + 200, 30_000);
    } finally {
      stop = true;
      stopLag();
      await Promise.all(callers);
    }
    const arrivals = proxy.arrivals.slice(warmArrivals);
    const counts = perSecond(arrivals, from, MEASURE_S);
    const total = counts.reduce((a, b) => a + b, 0);
    console.info(
      `lagging loop (${LAG_MS} ms) at ${RPS}/s, two processes: ${total} requests in ${MEASURE_S} s, per second ${counts.join(' ')}, ` +
        `busiest sliding second ${busiestWindow(arrivals)} of ${arrivals.length}, Redis outages ${warnings.length}`,
    );
    expect(warnings).toEqual([]);
    expect(total / MEASURE_S).toBeGreaterThanOrEqual(RPS * 0.9);
    // The bound the limiter exists for, as the upstream counts: any second, sliding, every arrival.
    expect(busiestWindow(arrivals)).toBeLessThanOrEqual(RPS);
  }, 60_000);
});
