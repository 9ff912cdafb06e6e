import { describe, expect, it } from 'vitest';
import { inProcessRateLimits, ORDER_DETAIL_OPERATION, routeRateLimits } from '../../src/ratelimit/budgets.ts';
import { createRateLimiter, type RateLimiter, RateLimitPausedError } from '../../src/ratelimit/limiter.ts';
import { sendWindowRule } from '../../src/ratelimit/sendWindow.ts';

/**
 * A fake clock whose sleep advances time (by `lateMs(i)` more than asked for the i-th sleep: a
 * timer firing late on a busy event loop), so the limiter's maths is checked without waiting.
 */
function fakeTime(lateMs: (i: number) => number = () => 0) {
  let t = 1_000_000;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms + lateMs(sleeps.length);
      sleeps.push(ms);
    },
    advance: (ms: number) => {
      t += ms;
    },
    sleeps,
  };
}

/** `n` requests, one after the other; the time each went, from the first. */
async function sendTimes(limiter: RateLimiter, time: ReturnType<typeof fakeTime>, n: number) {
  const sent: number[] = [];
  for (let i = 0; i < n; i++) {
    await limiter.acquire();
    sent.push(time.now());
  }
  return sent.map((t) => t - sent[0]!);
}

/** The most requests any half-open window [t, t + windowMs) holds. */
function busiest(times: readonly number[], windowMs: number): number {
  let most = 0;
  for (let i = 0, j = 0; i < times.length; i += 1) {
    while (j < times.length && times[j]! - times[i]! < windowMs) j += 1;
    most = Math.max(most, j - i);
  }
  return most;
}

describe('the send-window rule', () => {
  it('allows floor(rps) requests per (1000 + 50) ms scaled to the rate, spaced evenly', () => {
    expect(sendWindowRule(10)).toEqual({ sends: 10, windowMs: 1050, spacingMs: 105 });
    expect(sendWindowRule(2.5)).toEqual({ sends: 2, windowMs: 840, spacingMs: 420 });
    expect(sendWindowRule(0.5)).toEqual({ sends: 1, windowMs: 2100, spacingMs: 2100 });
  });
});

describe('in-process limiter', () => {
  it('spaces requests (1000 + 50) / rps apart, without carrying the rounding of each wait', async () => {
    const time = fakeTime();
    const limiter = createRateLimiter({ rps: 4, now: time.now, sleep: time.sleep });
    expect(await sendTimes(limiter, time, 5)).toEqual([0, 263, 525, 788, 1050]);
  });

  it('concurrent callers take turns in order, each asking once it is first', async () => {
    const time = fakeTime();
    const limiter = createRateLimiter({ rps: 4, now: time.now, sleep: time.sleep });
    const order: number[] = [];
    await Promise.all([0, 1, 2].map((i) => limiter.acquire().then(() => order.push(i))));
    expect(order).toEqual([0, 1, 2]);
    expect(time.sleeps).toEqual([263, 262]);
  });

  it('a caller that wakes late goes late: the budget is not wasted, and no second holds more than rps', async () => {
    // Every timer fires 30 ms late (a lagging event loop), at 10/s.
    const time = fakeTime(() => 30);
    const limiter = createRateLimiter({ rps: 10, now: time.now, sleep: time.sleep });
    const sent = await sendTimes(limiter, time, 200);
    // Nothing is reserved twice, so a late caller takes no second turn and leaves none unused: 30 ms
    // of lateness costs the 5 ms beyond what the schedule forgives, per request (110 ms apart).
    const rate = (sent.length - 1) / (sent.at(-1)! / 1000);
    expect(rate).toBeGreaterThanOrEqual(9);
    expect(busiest(sent, 1050)).toBe(10);
  });

  it('however late callers wake, any (1000 + 50) ms holds at most rps requests', async () => {
    // Lateness from 0 to 200 ms, a different amount each time (a fixed pseudo-random sequence).
    let seed = 7;
    const time = fakeTime(() => {
      seed = (seed * 48271) % 2147483647;
      return seed % 200;
    });
    for (const rps of [3, 10]) {
      const limiter = createRateLimiter({ rps, now: time.now, sleep: time.sleep });
      const sent = await sendTimes(limiter, time, 300);
      expect(busiest(sent, 1050)).toBeLessThanOrEqual(rps);
    }
  });

  it('rps 0 means no limit', async () => {
    const limiter = createRateLimiter({ rps: 0, sleep: () => Promise.reject(new Error('must not sleep')) });
    await Promise.all(Array.from({ length: 50 }, () => limiter.acquire()));
  });
});

describe('pause (429, Retry-After)', () => {
  it('holds every caller until it ends, then they resume spaced', async () => {
    const time = fakeTime();
    const limiter = createRateLimiter({ rps: 4, now: time.now, sleep: time.sleep });
    await limiter.pause(2_000);
    const start = time.now();
    const sent: number[] = [];
    await Promise.all([0, 1, 2].map(() => limiter.acquire().then(() => sent.push(time.now() - start))));
    expect(sent).toEqual([2_000, 2_263, 2_525]);
  });

  it('after a pause, callers resume spaced even when the first wakes late: no one bunches after it', async () => {
    // The first wake-up after the pause is 100 ms late, the others on time, at 4/s (262.5 ms apart).
    const time = fakeTime((i) => (i === 0 ? 100 : 0));
    const limiter = createRateLimiter({ rps: 4, now: time.now, sleep: time.sleep });
    await limiter.pause(1_000);
    const start = time.now();
    const sent: number[] = [];
    await Promise.all([0, 1, 2, 3].map(() => limiter.acquire().then(() => sent.push(time.now() - start))));
    // A pause gives no turns: the first goes when it wakes, and the schedule starts from there.
    expect(sent).toEqual([1_100, 1_363, 1_625, 1_888]);
  });

  it('a caller late on its turn still goes on it; the schedule forgives up to 25 ms of lateness', async () => {
    // At 4/s (turns 262.5 ms apart, 4 requests per 1050 ms) the second request's timer fires late.
    const lateSecond = async (lateMs: number) => {
      const time = fakeTime((i) => (i === 0 ? lateMs : 0));
      return sendTimes(createRateLimiter({ rps: 4, now: time.now, sleep: time.sleep }), time, 6);
    };
    // 20 ms late: it goes at 283 on its turn (262.5), the next turns stay where they were. The
    // sixth, due at 1313, waits until 1333: the window counts the second when it went (283 + 1050).
    expect(await lateSecond(20)).toEqual([0, 283, 525, 788, 1050, 1333]);
    // 100 ms late: it still goes on its turn (no new turn, none unused), but the third keeps
    // 262.5 - 25 ms after it instead of bunching with it.
    expect(await lateSecond(100)).toEqual([0, 363, 601, 863, 1126, 1413]);
  });

  it('a pause longer than maxPauseWaitMs rejects instead of waiting, without blocking the callers after it', async () => {
    const time = fakeTime();
    const limiter = createRateLimiter({ rps: 4, maxPauseWaitMs: 1_000, now: time.now, sleep: time.sleep });
    await limiter.pause(5_000);
    await expect(limiter.acquire()).rejects.toBeInstanceOf(RateLimitPausedError);
    await expect(limiter.acquire()).rejects.toBeInstanceOf(RateLimitPausedError);
    time.advance(4_500);
    await limiter.acquire();
    expect(time.sleeps).toEqual([500]);
  });
});

describe('budgets by operation', () => {
  it('order details draw from their own budget and the global one; other calls from the global one only', async () => {
    const taken: string[] = [];
    const budget = (name: string): RateLimiter => ({
      acquire: async () => void taken.push(name),
      pause: async () => void taken.push(`pause ${name}`),
    });
    const limits = routeRateLimits({ global: budget('global'), orderDetail: budget('order-detail') });
    await limits(ORDER_DETAIL_OPERATION).acquire();
    expect(taken).toEqual(['order-detail', 'global']);
    taken.length = 0;
    await limits('GET Shipments/Updates').acquire();
    expect(taken).toEqual(['global']);
    taken.length = 0;
    await limits(ORDER_DETAIL_OPERATION).pause(100);
    expect(taken).toEqual(['pause global']);
  });

  it('in-process budgets: order details are spaced by the slower of the two rates', async () => {
    const time = fakeTime();
    const limits = inProcessRateLimits({ rps: 10, orderDetailRps: 2, now: time.now, sleep: time.sleep });
    for (let i = 0; i < 3; i++) await limits(ORDER_DETAIL_OPERATION).acquire();
    expect(time.sleeps).toEqual([525, 525]);
  });
});
