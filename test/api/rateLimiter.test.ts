import { describe, expect, it } from 'vitest';
import {
  createRateLimiter,
  JITTER_ALLOWANCE_MS,
  type RateLimiter,
  RateLimitPausedError,
  slotSpacingMs,
} from '../../src/api/rateLimiter.ts';
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

describe('in-process limiter', () => {
  it('spaces requests (1000 + JITTER_ALLOWANCE_MS) / rps apart, like the shared one', async () => {
    const time = fakeTime();
    const limiter = createRateLimiter({ rps: 4, now: time.now, sleep: time.sleep });
    for (let i = 0; i < 4; i++) await limiter.acquire();
    expect(slotSpacingMs(4)).toBe((1000 + JITTER_ALLOWANCE_MS) / 4);
    expect(time.sleeps).toEqual([263, 262, 263]);
  });

  it('concurrent callers queue up instead of all waiting the same slot', async () => {
    const time = fakeTime();
    const limiter = createRateLimiter({
      rps: 4,
      now: time.now,
      sleep: async (ms) => void time.sleeps.push(ms),
    });
    await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire()]);
    expect(time.sleeps).toEqual([263, 525]);
  });

  it('a caller whose wait ends late sends on its slot: it never takes another one', async () => {
    const time = fakeTime();
    const limiter = createRateLimiter({
      rps: 10,
      now: time.now,
      // Every timer fires 30 ms late (a lagging event loop).
      sleep: async (ms) => {
        time.sleeps.push(ms);
        time.advance(ms + 30);
      },
    });
    const sent: number[] = [];
    for (let i = 0; i < 4; i++) {
      await limiter.acquire();
      sent.push(time.now());
    }
    // One slot per request, 105 ms apart: each waits only what is left of its slot, and the
    // requests stay 105 ms apart (each 30 ms late), none re-queued behind a fresh slot.
    expect(time.sleeps).toEqual([105, 75, 75]);
    expect(sent.map((t) => t - sent[0]!)).toEqual([0, 135, 240, 345]);
  });

  it('a late request never makes one second hold more than rps: it waits the few ms left, not a new slot', async () => {
    const time = fakeTime();
    let lateNext = false;
    const limiter = createRateLimiter({
      rps: 4,
      now: time.now,
      // The second request's timer fires 120 ms late; the others on time.
      sleep: async (ms) => {
        time.sleeps.push(ms);
        time.advance(ms + (lateNext ? 120 : 0));
        lateNext = false;
      },
    });
    const start = time.now();
    const sent: number[] = [];
    for (let i = 0; i < 6; i++) {
      lateNext = i === 1;
      await limiter.acquire();
      sent.push(time.now() - start);
    }
    // Slots 0, 262.5, 525, 787.5, 1050, 1312.5: the second goes at 383 (late) on its own slot; the
    // sixth, due at 1313, waits until 1383 so that [383, 1383) holds 4, not 5. No slot is taken
    // twice: the wait is the 70 ms left, not a new slot 262.5 ms later.
    expect(sent).toEqual([0, 383, 525, 788, 1050, 1383]);
    for (let i = 4; i < sent.length; i++) expect(sent[i]! - sent[i - 4]!).toBeGreaterThanOrEqual(1000);
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
    expect(time.sleeps).toEqual([2_000, 2_263, 2_525]);
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
    expect(time.sleeps).toEqual([525, 525]);
  });
});
