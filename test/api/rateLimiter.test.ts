import { describe, expect, it } from 'vitest';
import { createRateLimiter, type RateLimiter, RateLimitPausedError } from '../../src/api/rateLimiter.ts';
import { inProcessRateLimits, ORDER_DETAIL_OPERATION, routeRateLimits } from '../../src/api/rateLimits.ts';

/** A fake clock whose sleep advances time, so limiter maths is checked without waiting. */
function fakeTime() {
  let t = 1_000_000;
  const sleeps: number[] = [];
  return {
    now: () => t,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      t += ms;
    },
    advance: (ms: number) => {
      t += ms;
    },
    sleeps,
  };
}

describe('token bucket', () => {
  it('spaces requests 1/rps apart after the burst', async () => {
    const time = fakeTime();
    const limiter = createRateLimiter({ rps: 4, now: time.now, sleep: time.sleep });
    for (let i = 0; i < 4; i++) await limiter.acquire();
    expect(time.sleeps).toEqual([250, 250, 250]);
  });

  it('concurrent callers queue up instead of all waiting the same slot', async () => {
    const time = fakeTime();
    const limiter = createRateLimiter({
      rps: 2,
      burst: 2,
      now: time.now,
      sleep: async (ms) => void time.sleeps.push(ms),
    });
    await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire(), limiter.acquire()]);
    expect(time.sleeps).toEqual([500, 1000]);
  });

  it('refills while idle, up to the burst', async () => {
    const time = fakeTime();
    const limiter = createRateLimiter({ rps: 1, burst: 3, now: time.now, sleep: time.sleep });
    for (let i = 0; i < 3; i++) await limiter.acquire();
    expect(time.sleeps).toEqual([]);
    time.advance(60_000);
    for (let i = 0; i < 4; i++) await limiter.acquire();
    expect(time.sleeps).toEqual([1000]);
  });

  it('rps 0 means no limit', async () => {
    const limiter = createRateLimiter({ rps: 0, sleep: () => Promise.reject(new Error('must not sleep')) });
    await Promise.all(Array.from({ length: 50 }, () => limiter.acquire()));
  });
});

describe('pause (429, Retry-After)', () => {
  it('holds every caller until it ends, then they resume spaced', async () => {
    const time = fakeTime();
    const limiter = createRateLimiter({
      rps: 4,
      now: time.now,
      sleep: async (ms) => void time.sleeps.push(ms),
    });
    await limiter.pause(2_000);
    await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire()]);
    expect(time.sleeps).toEqual([2_000, 2_250, 2_500]);
  });

  it('a pause longer than maxPauseWaitMs rejects instead of waiting', async () => {
    const time = fakeTime();
    const limiter = createRateLimiter({ rps: 4, maxPauseWaitMs: 1_000, now: time.now, sleep: time.sleep });
    await limiter.pause(5_000);
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
    expect(time.sleeps).toEqual([500, 500]);
  });
});
