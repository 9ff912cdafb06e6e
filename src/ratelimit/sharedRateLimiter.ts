import { type RateLimiter, RateLimitPausedError } from '../api/rateLimiter.ts';
import type { RedisConnection } from '../redis/connection.ts';
import { EXTEND_PAUSE_LUA, RESERVE_SLOT_LUA } from './scripts.ts';

/**
 * Headroom per second of budget, in ms: requests are spaced (1000 + this) / rps apart. Strict
 * 1/rps spacing puts rps+1 requests into one calendar second as soon as one request of three
 * arrives a few ms later than the next two (timers, event loops and networks all jitter), and the
 * upstream counts arrivals, not reservations; 50 ms covers that jitter for about 5% of throughput.
 */
export const JITTER_ALLOWANCE_MS = 50;
/**
 * A caller that wakes more than this after its slot (a busy event loop, a slow Redis reply) takes a
 * fresh slot instead of sending late, where it could land next to the following slot's request.
 */
export const LATE_TOLERANCE_MS = JITTER_ALLOWANCE_MS / 2;
/** Fresh slots taken for one request at most; then it goes late rather than starve. */
const MAX_RESERVATIONS = 3;

export interface SharedRateLimiterOptions {
  /** A fail-fast connection (no offline queue): a command during an outage fails at once. */
  redis: RedisConnection;
  /** The budget's slot key and the deployment's pause key (see keys.ts). */
  slotKey: string;
  pauseKey: string;
  /** Requests per second for the whole deployment; must be > 0. */
  rps: number;
  /** A pause longer than this makes `acquire` reject (the call fails as retryable) instead of waiting. */
  maxPauseWaitMs: number;
  /** This process's own limiter, used while Redis does not answer (and paused alongside). */
  fallback: RateLimiter;
  /** Told when Redis stops answering (once per outage) and when it answers again. */
  onOutage?: (error: Error) => void;
  onRecovery?: () => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

type SharedLimiterRedis = RedisConnection & {
  reserveRateLimitSlot(
    slotKey: string,
    pauseKey: string,
    intervalMs: string,
    maxWaitMs: string,
  ): Promise<[number, number]>;
  extendRateLimitPause(pauseKey: string, ms: string): Promise<number>;
};

/** Registers the scripts once per connection (ioredis sends EVALSHA, falling back to EVAL). */
function withScripts(redis: RedisConnection): SharedLimiterRedis {
  const scripted = redis as SharedLimiterRedis;
  if (typeof scripted.reserveRateLimitSlot !== 'function') {
    redis.defineCommand('reserveRateLimitSlot', { numberOfKeys: 2, lua: RESERVE_SLOT_LUA });
    redis.defineCommand('extendRateLimitPause', { numberOfKeys: 1, lua: EXTEND_PAUSE_LUA });
  }
  return scripted;
}

/**
 * A rate limiter shared by every process on one Redis: strict spacing (GCRA without burst) kept in
 * Redis, one slot reserved per `acquire` by an atomic script, and a deployment-wide pause-until that
 * every reservation honours. Without Redis (an outage) it falls back to `fallback`, this process's
 * own bucket, and says so once; it never fails a call because Redis is down.
 */
export function createSharedRateLimiter(options: SharedRateLimiterOptions): RateLimiter {
  const redis = withScripts(options.redis);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const intervalMs = ((1000 + JITTER_ALLOWANCE_MS) / options.rps).toFixed(3);
  let down = false;

  const outage = (error: unknown) => {
    if (down) return;
    down = true;
    options.onOutage?.(error instanceof Error ? error : new Error(String(error)));
  };
  const answered = () => {
    if (!down) return;
    down = false;
    options.onRecovery?.();
  };

  /** One reservation: ms to wait, or undefined when Redis did not answer. */
  async function reserve(): Promise<number | undefined> {
    let reply: [number, number];
    try {
      reply = await redis.reserveRateLimitSlot(
        options.slotKey,
        options.pauseKey,
        intervalMs,
        String(options.maxPauseWaitMs),
      );
    } catch (error) {
      outage(error);
      return undefined;
    }
    answered();
    const [paused, ms] = reply;
    if (paused === 1) throw new RateLimitPausedError(ms);
    return ms;
  }

  return {
    async acquire() {
      for (let reservation = 1; ; reservation += 1) {
        const asked = now();
        const waitMs = await reserve();
        if (waitMs === undefined) return options.fallback.acquire();
        if (waitMs > 0) await sleep(waitMs);
        const lateMs = now() - (asked + waitMs);
        if (lateMs <= LATE_TOLERANCE_MS || reservation >= MAX_RESERVATIONS) return;
      }
    },
    async pause(ms) {
      await options.fallback.pause(ms);
      try {
        await redis.extendRateLimitPause(options.pauseKey, String(Math.ceil(ms)));
        answered();
      } catch (error) {
        outage(error);
      }
    },
  };
}
