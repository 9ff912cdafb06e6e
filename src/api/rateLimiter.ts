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

/**
 * Headroom per second of budget, in ms: requests are spaced (1000 + this) / rps apart. Strict
 * 1/rps spacing puts rps+1 requests into one calendar second as soon as one request of three
 * arrives a few ms later than the next two (timers, event loops and networks all jitter), and the
 * upstream counts arrivals, not reservations; 50 ms covers that jitter for about 5% of throughput.
 */
export const JITTER_ALLOWANCE_MS = 50;

/** The spacing of two requests of a budget of `rps` per second, in every limiter (memory or Redis). */
export function slotSpacingMs(rps: number): number {
  return (1000 + JITTER_ALLOWANCE_MS) / rps;
}

/** One reservation: the ms until the reserved slot, or the ms a pause lasts that the caller will not wait. */
export type Reservation = { waitMs: number } | { pausedMs: number };

/**
 * Where a budget's slots are kept (GCRA without burst: strict spacing, and a pause-until every
 * reservation honours): this process's memory (`memorySlots`) or Redis for a whole deployment
 * (src/ratelimit). `reserve` takes its slot before its first await, so concurrent callers queue in
 * order and none of them oversleeps.
 */
export interface SlotStore {
  reserve(): Promise<Reservation>;
  /**
   * Records that a request goes now, when the last `sendWindow(rps).sends` requests were sent
   * before the window; else answers the ms until that is so (0: recorded, go).
   */
  recordSend(): Promise<number>;
  pause(ms: number): Promise<void>;
}

/**
 * The send-time rule behind `recordSend`: at most `sends` requests in any `windowMs` (rps in any
 * second; for rates below 1/s one request per 1000/rps ms), counted when requests actually go.
 */
export function sendWindow(rps: number): { sends: number; windowMs: number } {
  const sends = Math.max(1, Math.floor(rps));
  return { sends, windowMs: (1000 * sends) / rps };
}

export interface Clock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const SYSTEM_CLOCK: Clock = { now: Date.now, sleep: defaultSleep };

/**
 * The one rate limiter: reserves a slot in `store`, waits for it, and records the send. The wait is
 * counted from when the slot was asked for, so a reply handled late (a busy event loop) does not
 * push the request later still. A request whose timer fires late goes on its own slot: taking a
 * fresh one would leave that slot unused and waste the budget, request after request, whenever the
 * event loop lags. What keeps a late request from landing next to the on-time ones after it (rps+1
 * in a second, as the upstream counts) is the send log: it goes once fewer than rps requests went
 * in the last second, waiting the few ms until then if need be, never a whole slot.
 */
export function limiterOverSlots(store: SlotStore, clock: Partial<Clock> = {}): RateLimiter {
  const now = clock.now ?? SYSTEM_CLOCK.now;
  const sleep = clock.sleep ?? SYSTEM_CLOCK.sleep;
  return {
    async acquire() {
      const asked = now();
      const reservation = await store.reserve();
      if ('pausedMs' in reservation) throw new RateLimitPausedError(reservation.pausedMs);
      const remainingMs = asked + reservation.waitMs - now();
      if (remainingMs > 0) await sleep(Math.ceil(remainingMs));
      for (let waitMs = await store.recordSend(); waitMs > 0; waitMs = await store.recordSend()) {
        await sleep(Math.ceil(waitMs));
      }
    },
    pause: (ms) => store.pause(ms),
  };
}

export interface MemorySlotsOptions {
  /** Requests per second; must be > 0 and finite. */
  rps: number;
  /** A pause longer than this is answered as paused instead of waited for (default: wait any time). */
  maxPauseWaitMs?: number;
  now?: () => number;
}

/** A budget's slots in this process's memory: the same algorithm as the Redis script (scripts.ts). */
export function memorySlots(options: MemorySlotsOptions): SlotStore {
  const now = options.now ?? Date.now;
  const spacingMs = slotSpacingMs(options.rps);
  const { sends: windowSends, windowMs } = sendWindow(options.rps);
  let nextSlot = Number.NEGATIVE_INFINITY;
  let pausedUntil = Number.NEGATIVE_INFINITY;
  // The last `windowSends` send times, oldest first.
  const sent: number[] = [];
  return {
    async reserve() {
      const t = now();
      if (pausedUntil - t > (options.maxPauseWaitMs ?? Number.POSITIVE_INFINITY)) {
        return { pausedMs: pausedUntil - t };
      }
      const slot = Math.max(t, nextSlot, pausedUntil);
      nextSlot = slot + spacingMs;
      return { waitMs: slot - t };
    },
    async recordSend() {
      const t = now();
      const oldest = sent.length < windowSends ? undefined : sent[0];
      if (oldest !== undefined && t - oldest < windowMs) return oldest + windowMs - t;
      sent.push(t);
      if (sent.length > windowSends) sent.shift();
      return 0;
    },
    async pause(ms) {
      pausedUntil = Math.max(pausedUntil, now() + ms);
    },
  };
}

export interface RateLimiterOptions {
  /** Requests per second; 0, negative or Infinity means no limit (and no pause: the sandbox). */
  rps: number;
  /** A pause longer than this makes `acquire` reject instead of waiting (default: wait any time). */
  maxPauseWaitMs?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/** A limiter that never waits: the sandbox, and tests of everything but pacing. */
export const NO_RATE_LIMIT: RateLimiter = { acquire: async () => {}, pause: async () => {} };

/** Whether `rps` sets a limit at all. */
export function limitsRate(rps: number): boolean {
  return rps > 0 && Number.isFinite(rps);
}

/**
 * A limiter for one process: `limiterOverSlots` over `memorySlots`. A pause moves the next slot past
 * its end, so callers resume spaced, not all at once. The shared limiter (src/ratelimit) is the same
 * limiter over slots kept in Redis.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  if (!limitsRate(options.rps)) return NO_RATE_LIMIT;
  const { now, sleep } = options;
  return limiterOverSlots(memorySlots({ rps: options.rps, maxPauseWaitMs: options.maxPauseWaitMs, now }), {
    ...(now ? { now } : {}),
    ...(sleep ? { sleep } : {}),
  });
}
