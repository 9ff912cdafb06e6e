import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_STREAM_JOB, syncStreamJobOptions } from '../../jobs/syncStream.ts';
import { type CountingProxy, perSecond, startCountingProxy } from '../helpers/countingProxy.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { startWorkerHarness, type WorkerHarness } from '../worker/workerHarness.ts';

/**
 * The "done when" of the shared rate limit: two worker processes at FULFILLMENT_RATE_LIMIT_RPS=2
 * send at most 2 requests per second in total, counted where the upstream receives them: over 20 s
 * by default, the full minute of that bar with SLOW_TESTS=1.
 */
const RPS = 2;
const MEASURE_S = process.env.SLOW_TESTS === '1' ? 60 : 20;

let harness: WorkerHarness | undefined;
let proxy: CountingProxy | undefined;

beforeAll(async () => {
  harness = await startWorkerHarness('ratelimit2', { seed: 7, historyDays: 3 });
  proxy = await startCountingProxy(harness.sim.url);
}, 120_000);

// Dropping the test database forces a checkpoint, which takes long on a busy shared machine.
afterAll(async () => {
  await proxy?.close();
  await harness?.close();
}, 180_000);

describe('two worker processes share one upstream budget', () => {
  it(`send at most ${RPS} requests/s in total, counted at the simulator over ${MEASURE_S} s`, async () => {
    const h = harness!;
    const env = h.env({
      FULFILLMENT_API_URL: proxy!.url,
      FULFILLMENT_RATE_LIMIT_RPS: String(RPS),
      // One job each, so both processes are calling at once; one-minute windows over two days give
      // each run thousands of calls, more than a minute at this rate.
      WORKER_CONCURRENCY: '1',
      ...h.onDemand({ shipments: { windowSize: 1, minWindowSize: 1 } }),
      LOG_LEVEL: 'debug',
    });
    const workers = [h.spawn(env), h.spawn(env)];
    await Promise.all(workers.map((w) => w.waitForLog(/worker started/, 60_000)));
    for (const account of h.sim.world.accounts) {
      const payload = { stream: 'shipments' as const, scope: account.number };
      await h.queue.add(SYNC_STREAM_JOB, payload, syncStreamJobOptions(payload));
    }
    await waitFor('the first upstream request', () => proxy!.arrivals.length > 0, 60_000);
    // Whole seconds from the first one after the first request.
    const from = (Math.floor(proxy!.arrivals[0]! / 1000) + 1) * 1000;
    await waitFor('the measuring time', () => Date.now() > from + MEASURE_S * 1000 + 500, 90_000);
    for (const w of workers) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.exited));

    const counts = perSecond(proxy!.arrivals, from, MEASURE_S);
    const total = counts.reduce((a, b) => a + b, 0);
    console.info(
      `shared rate limit at ${RPS}/s, two workers: ${total} requests in ${MEASURE_S} s ` +
        `(${(total / MEASURE_S).toFixed(2)}/s), busiest second ${Math.max(...counts)}`,
    );
    expect(Math.max(...counts)).toBeLessThanOrEqual(RPS);
    // The budget was used, not idle: both processes were calling the whole time, each taking a
    // fair part of it.
    expect(total).toBeGreaterThanOrEqual(MEASURE_S * RPS * 0.8);
    const calls = workers.map((w) => w.lines.filter((l) => l.includes('"msg":"upstream call"')).length);
    expect(calls.every((n) => n >= MEASURE_S * RPS * 0.25)).toBe(true);
  }, 200_000);
});
