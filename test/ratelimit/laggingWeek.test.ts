import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { RateLimiter, RateLimits } from '../../src/api/index.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { openUpstreamRateLimits, type UpstreamRateLimits } from '../../src/ratelimit/upstreamRateLimits.ts';
import { allStreams } from '../../src/streams/index.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { StreamRunResult } from '../../src/sync/types.ts';
import { busiestWindow } from '../chaos/lib/rateWindows.ts';
import { perSecond } from '../helpers/countingProxy.ts';
import { type CountingProxyProcess, startCountingProxyProcess } from '../helpers/countingProxyProcess.ts';
import { cleanupRedisPrefix, testRedisPrefix } from '../helpers/redis.ts';
import { type SyncHarness, simulatorClient, startSyncHarness } from '../helpers/syncHarness.ts';
import { lagEventLoop } from './lagEventLoop.ts';

/**
 * Issue 20's "done when": a simulated week with a lagging event loop (30 ms) at
 * FULFILLMENT_RATE_LIMIT_RPS=10 sends at least 9 requests/s while work is waiting. A day at a time,
 * every stream of every scope runs at once (a worker with room for all of them) through the shared
 * budget in Redis, while a busy loop holds this process 30 ms of every 40; the upstream counts
 * arrivals in a proxy of its own process. Work is waiting in a second when some call waited for the
 * budget throughout it; those seconds must average at least 9 arrivals, and no sliding second may
 * hold more than 10.
 */

const RPS = 10;
const LAG_MS = 30;
/**
 * The busy loop runs every 100 ms: every timer up to 30 ms late, and the sync's own work (parsing,
 * diffing, Postgres) still has most of the loop. (At 30 of every 40 ms, as in laggingEventLoop.test.ts,
 * that work starves: the measured delay averaged 38 ms with a p99 of 119 ms on a loaded machine.)
 */
const LAG_EVERY_MS = 100;
const START = new Date('2026-03-02T08:00:00Z');
const HISTORY_DAYS = 2;
const DAYS = 7;
const STEP_HOURS = 24;
const logger = pino({ level: 'silent' });
const redisUrl = inject('redisUrl');
const prefix = testRedisPrefix('lagging-week');

let s: SyncHarness;
let proxy: CountingProxyProcess;
let budgets: UpstreamRateLimits;

beforeAll(async () => {
  s = await startSyncHarness(
    { seed: 5, start: START, volume: { historyDays: HISTORY_DAYS, suppliers: 2, winesPerSupplier: 8 } },
    {
      FULFILLMENT_SYNC_START: new Date(START.getTime() - HISTORY_DAYS * 86_400_000).toISOString(),
      // Day-wide windows: a run is a handful of calls, so the week takes about a minute at 10/s.
      FULFILLMENT_STREAMS: JSON.stringify({
        transfers_in: { windowSize: 31 },
        returns: { windowSize: 31 },
        shipments: { windowSize: STEP_HOURS * 60 + 180 },
      }),
    },
  );
  proxy = await startCountingProxyProcess(s.sim.url);
  budgets = await openUpstreamRateLimits({
    redis: redisUrl,
    prefix,
    rps: RPS,
    orderDetailRps: RPS,
    waitMs: 2_000,
    logger,
  });
  expect(budgets.shared).toBe(true);
}, 120_000);

afterAll(async () => {
  budgets?.close();
  await proxy?.close();
  await s?.close();
  const admin = new Redis(redisUrl);
  await cleanupRedisPrefix(admin, prefix);
  admin.disconnect();
}, 120_000);

/** How many calls wait for the budget, each time that changes: [when (epoch ms), how many]. */
const waiting: Array<[number, number]> = [];
let waitingNow = 0;
/** When each call was let through (this process's clock, as it went on). */
const letThrough: number[] = [];

/** The budgets, counting the calls that wait in them. */
function counted(limits: RateLimits): RateLimits {
  return (operation) => {
    const limiter = limits(operation);
    const note = (delta: number) => {
      waitingNow += delta;
      waiting.push([Date.now(), waitingNow]);
    };
    const wrapped: RateLimiter = {
      acquire: async () => {
        note(1);
        try {
          await limiter.acquire();
          letThrough.push(Date.now());
        } finally {
          note(-1);
        }
      },
      pause: (ms) => limiter.pause(ms),
    };
    return wrapped;
  };
}

/** Calendar seconds (epoch s) during all of which at least one call waited for the budget. */
function secondsWithWorkWaiting(): number[] {
  const seconds: number[] = [];
  let since: number | undefined;
  for (const [at, count] of waiting) {
    if (count > 0 && since === undefined) since = at;
    if (count === 0 && since !== undefined) {
      for (let sec = Math.ceil(since / 1000); (sec + 1) * 1000 <= at; sec += 1) seconds.push(sec);
      since = undefined;
    }
  }
  return seconds;
}

/** Every stream of every scope at once, at the simulator's now; answers the failed runs. */
async function syncAllAtOnce(): Promise<StreamRunResult[]> {
  const client = simulatorClient(s.sim, s.config, {
    baseUrl: proxy.url,
    rateLimitRps: RPS,
    rateLimits: counted(budgets.limits),
  });
  const eventSink = createEventSink({ timezone: s.config.timezone, thresholds: s.config.events });
  const now = new Date(s.sim.clock.now());
  const world = s.sim.truth();
  const runs = allStreams().flatMap((stream) =>
    (stream.scopeKind === 'supplier' ? world.suppliers : world.accounts).map((id) =>
      runStream({
        pool: s.t.pool,
        client,
        config: s.config,
        logger,
        stream,
        scope: { kind: stream.scopeKind, id },
        now,
        eventSink,
      }),
    ),
  );
  return (await Promise.all(runs)).filter((r) => r.status === 'failed');
}

// About 1,570 requests: 3 minutes at 10/s, so only with SLOW_TESTS=1. Every run checks the same
// rule on two processes with a harsher lag in laggingEventLoop.test.ts.
describe.runIf(process.env.SLOW_TESTS === '1')('a simulated week on a lagging event loop', () => {
  it(`sends at least ${RPS * 0.9} requests/s at ${RPS}/s while work waits, never more than ${RPS} in a second`, async () => {
    const delay = monitorEventLoopDelay({ resolution: 10 });
    delay.enable();
    const stopLag = lagEventLoop(LAG_MS, LAG_EVERY_MS);
    const failed: StreamRunResult[] = [];
    try {
      for (let hour = 0; hour <= DAYS * 24; hour += STEP_HOURS) {
        if (hour > 0) s.sim.advance(STEP_HOURS * 60);
        failed.push(...(await syncAllAtOnce()));
      }
    } finally {
      stopLag();
      delay.disable();
    }
    expect(failed.map((f) => `${f.stream} ${f.scope.id}: ${f.error}`)).toEqual([]);

    const busySeconds = new Set(secondsWithWorkWaiting());
    const sent = proxy.arrivals.filter((t) => busySeconds.has(Math.floor(t / 1000))).length;
    const rate = sent / busySeconds.size;
    const perCalendarSecond = perSecond(
      proxy.arrivals,
      proxy.arrivals[0]!,
      Math.floor(proxy.arrivals.at(-1)! / 1000) - Math.floor(proxy.arrivals[0]! / 1000) + 1,
    );
    console.info(
      `lagging week (busy ${LAG_MS} ms of every ${LAG_EVERY_MS}; event-loop delay mean ${(delay.mean / 1e6).toFixed(0)} ms, ` +
        `p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms) at ${RPS}/s: ${proxy.arrivals.length} requests, ` +
        `${busySeconds.size} s with work waiting, ${sent} sent in them (${rate.toFixed(2)}/s); busiest second: ` +
        `let through ${busiestWindow(letThrough)} sliding, arrived ${busiestWindow(proxy.arrivals)} sliding, ` +
        `${Math.max(...perCalendarSecond)} calendar`,
    );
    // Enough seconds of waiting work for the rate to mean something.
    expect(busySeconds.size).toBeGreaterThanOrEqual(20);
    expect(rate).toBeGreaterThanOrEqual(RPS * 0.9);
    // The bound: exact where the limiter lets calls through; at the upstream, per calendar second
    // as the Redis deployment tests count it (a call can reach the proxy a variable while after it
    // is let through: on this loaded, lagging process a new connection took up to 100 ms).
    expect(busiestWindow(letThrough)).toBeLessThanOrEqual(RPS);
    expect(Math.max(...perCalendarSecond)).toBeLessThanOrEqual(RPS);
  }, 300_000);
});
