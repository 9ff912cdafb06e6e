/**
 * The Standard Webhooks retry schedule: the first attempt at once, then retries after 5 s, 5 min,
 * 30 min, 2 h, 5 h, 10 h, 14 h, 20 h and 24 h (about 3 days in all). Entry n is the wait before
 * attempt n + 1; tests pass a shortened schedule of the same shape.
 */
export const STANDARD_SCHEDULE_MS: readonly number[] = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  14 * 3_600_000,
  20 * 3_600_000,
  24 * 3_600_000,
];

/**
 * `schedule` with every wait capped at `maxDelayMs` (WEBHOOK_RETRY_MAX_DELAY_MS): as many attempts,
 * sooner. Pure.
 */
export function cappedSchedule(
  maxDelayMs: number,
  schedule: readonly number[] = STANDARD_SCHEDULE_MS,
): readonly number[] {
  return schedule.map((ms) => Math.min(ms, maxDelayMs));
}

/** Never wait longer than this, whatever Retry-After says. */
export const MAX_RETRY_DELAY_MS = 24 * 3_600_000;

export interface RetryOptions {
  schedule?: readonly number[];
  /** Spread of the random jitter, as a fraction of the delay (default 0.1 = +-10%). */
  jitter?: number;
  random?: () => number;
  /** The receiver's Retry-After, in ms: the wait is never shorter than it asked. */
  retryAfterMs?: number | undefined;
}

/** How many attempts the schedule allows in total (first attempt included). */
export function maxAttempts(schedule: readonly number[] = STANDARD_SCHEDULE_MS): number {
  return schedule.length;
}

/**
 * The wait before the next attempt after `attemptsMade` failed attempts (1 after the first), or
 * undefined when the schedule is exhausted. Pure apart from the injectable `random`.
 */
export function nextRetryDelay(attemptsMade: number, options: RetryOptions = {}): number | undefined {
  const schedule = options.schedule ?? STANDARD_SCHEDULE_MS;
  const base = schedule[attemptsMade];
  if (attemptsMade < 1 || base === undefined) return undefined;
  const jitter = options.jitter ?? 0.1;
  const random = options.random ?? Math.random;
  const jittered = Math.round(base * (1 + jitter * (random() * 2 - 1)));
  const wanted = Math.max(jittered, options.retryAfterMs ?? 0);
  return Math.min(Math.max(wanted, 0), MAX_RETRY_DELAY_MS);
}
