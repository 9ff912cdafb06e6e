/** Waits until the caller may send one more request. */
export interface RateLimiter {
  acquire(): Promise<void>;
}

export interface RateLimiterOptions {
  /** Requests per second; 0, negative or Infinity means no limit. */
  rps: number;
  /**
   * Bucket size: how many requests may go at once after a quiet spell. Default 1, i.e. strict
   * spacing, so no one-second window ever sees more than about `rps` calls (upstream quotas are unknown).
   */
  burst?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A client-side token bucket. Each `acquire()` reserves its slot synchronously (the bucket may go
 * negative), so concurrent callers queue in order without a lock and none of them oversleeps.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { rps } = options;
  if (!(rps > 0) || !Number.isFinite(rps)) return { acquire: async () => {} };
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const capacity = Math.max(1, options.burst ?? 1);
  let tokens = capacity;
  let last = now();

  return {
    async acquire() {
      const t = now();
      tokens = Math.min(capacity, tokens + ((t - last) / 1000) * rps);
      last = t;
      tokens -= 1;
      if (tokens >= 0) return;
      await sleep(Math.ceil((-tokens / rps) * 1000));
    },
  };
}
