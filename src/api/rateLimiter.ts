/** One budget of upstream requests: waits for a slot, and can be paused when upstream says so. */
export interface RateLimiter {
  /**
   * Waits until the caller may send one more request. Rejects with `RateLimitPausedError` when the
   * budget is paused for longer than the caller is willing to wait (the job is retried later instead).
   */
  acquire(): Promise<void>;
  /**
   * Holds every caller of this budget for `ms` (a 429 or a Retry-After): a shared limiter holds
   * every process; an earlier, longer pause is never shortened.
   */
  pause(ms: number): Promise<void>;
}

/** The budget is paused (upstream's Retry-After) for longer than the caller may wait. */
export class RateLimitPausedError extends Error {
  override name = 'RateLimitPausedError';
  constructor(readonly retryAfterMs: number) {
    super(`upstream asked every process to wait ${Math.ceil(retryAfterMs / 1000)} s`);
  }
}

export interface RateLimiterOptions {
  /** Requests per second; 0, negative or Infinity means no limit (and no pause: the sandbox). */
  rps: number;
  /**
   * Bucket size: how many requests may go at once after a quiet spell. Default 1, i.e. strict
   * spacing, so no one-second window ever sees more than about `rps` calls (upstream quotas are unknown).
   */
  burst?: number;
  /** A pause longer than this makes `acquire` reject instead of waiting (default: wait any time). */
  maxPauseWaitMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A limiter that never waits: the sandbox, and tests of everything but pacing. */
export const NO_RATE_LIMIT: RateLimiter = { acquire: async () => {}, pause: async () => {} };

/**
 * A client-side limiter for one process (GCRA, the token bucket as "theoretical arrival time"): each
 * `acquire()` reserves its slot synchronously, so concurrent callers queue in order without a lock
 * and none of them oversleeps. A pause moves the next slot past its end, so callers resume spaced,
 * not all at once. The shared limiter (src/ratelimit) runs the same algorithm in Redis.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { rps } = options;
  if (!(rps > 0) || !Number.isFinite(rps)) return NO_RATE_LIMIT;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const intervalMs = 1000 / rps;
  // How far ahead of its spacing a request may go: the burst beyond the first.
  const toleranceMs = (Math.max(1, options.burst ?? 1) - 1) * intervalMs;
  let nextSlot = Number.NEGATIVE_INFINITY;
  let pausedUntil = Number.NEGATIVE_INFINITY;

  return {
    async acquire() {
      const t = now();
      if (pausedUntil - t > (options.maxPauseWaitMs ?? Number.POSITIVE_INFINITY)) {
        throw new RateLimitPausedError(pausedUntil - t);
      }
      const slot = Math.max(t, nextSlot - toleranceMs, pausedUntil);
      nextSlot = Math.max(nextSlot, slot) + intervalMs;
      if (slot > t) await sleep(Math.ceil(slot - t));
    },
    async pause(ms) {
      pausedUntil = Math.max(pausedUntil, now() + ms);
    },
  };
}
