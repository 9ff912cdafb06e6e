import { describe, expect, it } from 'vitest';
import {
  cappedSchedule,
  MAX_RETRY_DELAY_MS,
  maxAttempts,
  nextRetryDelay,
  STANDARD_SCHEDULE_MS,
} from './schedule.ts';

const noJitter = { jitter: 0 };

describe('retry schedule', () => {
  it('follows the Standard Webhooks schedule and ends after the 24 h retry', () => {
    const delays = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((n) => nextRetryDelay(n, noJitter));
    expect(delays).toEqual([
      5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 50_400_000, 72_000_000, 86_400_000,
    ]);
    expect(nextRetryDelay(10, noJitter)).toBeUndefined();
    expect(maxAttempts()).toBe(10);
    expect(STANDARD_SCHEDULE_MS[0]).toBe(0);
  });

  it('caps every wait at WEBHOOK_RETRY_MAX_DELAY_MS, keeping the number of attempts', () => {
    const schedule = cappedSchedule(1_000);
    expect(schedule).toEqual([0, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000, 1_000]);
    expect(maxAttempts(schedule)).toBe(maxAttempts());
    expect(cappedSchedule(86_400_000)).toEqual(STANDARD_SCHEDULE_MS);
  });

  it('jitters within the given spread', () => {
    expect(nextRetryDelay(2, { jitter: 0.1, random: () => 0 })).toBe(270_000);
    expect(nextRetryDelay(2, { jitter: 0.1, random: () => 1 })).toBe(330_000);
  });

  it('never waits less than Retry-After, and never more than 24 h', () => {
    expect(nextRetryDelay(1, { ...noJitter, retryAfterMs: 60_000 })).toBe(60_000);
    expect(nextRetryDelay(3, { ...noJitter, retryAfterMs: 60_000 })).toBe(1_800_000);
    expect(nextRetryDelay(1, { ...noJitter, retryAfterMs: 10 * MAX_RETRY_DELAY_MS })).toBe(
      MAX_RETRY_DELAY_MS,
    );
  });

  it('takes a shortened schedule for tests', () => {
    expect(nextRetryDelay(1, { schedule: [0, 10, 20], jitter: 0 })).toBe(10);
    expect(nextRetryDelay(3, { schedule: [0, 10, 20], jitter: 0 })).toBeUndefined();
  });
});
