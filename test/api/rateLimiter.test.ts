import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '../../src/api/rateLimiter.ts';

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
