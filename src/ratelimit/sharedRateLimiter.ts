import {
  limiterOverSlots,
  type RateLimiter,
  type SlotStore,
  sendWindow,
  slotSpacingMs,
} from '../api/rateLimiter.ts';
import type { RedisConnection } from '../redis/connection.ts';
import { EXTEND_PAUSE_LUA, RECORD_SEND_LUA, RESERVE_SLOT_LUA } from './scripts.ts';

export interface SharedRateLimiterOptions {
  /** A fail-fast connection (no offline queue): a command during an outage fails at once. */
  redis: RedisConnection;
  /** The budget's slot key, its send log, and the deployment's pause key (see keys.ts). */
  slotKey: string;
  sentKey: string;
  pauseKey: string;
  /** Requests per second for the whole deployment; must be > 0. */
  rps: number;
  /** A pause longer than this makes `acquire` reject (the call fails as retryable) instead of waiting. */
  maxPauseWaitMs: number;
  /** This process's own slots (`memorySlots`), used while Redis does not answer (and paused alongside). */
  fallback: SlotStore;
  /** Told when Redis stops answering (once per outage) and when it answers again. */
  onOutage?: (error: Error) => void;
  onRecovery?: () => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

type SharedLimiterRedis = RedisConnection & {
  reserveRateLimitSlot(
    slotKey: string,
    pauseKey: string,
    intervalMs: string,
    maxWaitMs: string,
  ): Promise<[number, number]>;
  extendRateLimitPause(pauseKey: string, ms: string): Promise<number>;
  recordRateLimitSend(sentKey: string, sends: string, windowMs: string): Promise<number>;
};

/** Registers the scripts once per connection (ioredis sends EVALSHA, falling back to EVAL). */
function withScripts(redis: RedisConnection): SharedLimiterRedis {
  const scripted = redis as SharedLimiterRedis;
  if (typeof scripted.recordRateLimitSend !== 'function') {
    redis.defineCommand('recordRateLimitSend', { numberOfKeys: 1, lua: RECORD_SEND_LUA });
  }
  if (typeof scripted.reserveRateLimitSlot !== 'function') {
    redis.defineCommand('reserveRateLimitSlot', { numberOfKeys: 2, lua: RESERVE_SLOT_LUA });
    redis.defineCommand('extendRateLimitPause', { numberOfKeys: 1, lua: EXTEND_PAUSE_LUA });
  }
  return scripted;
}

/**
 * A rate limiter shared by every process on one Redis: the one limiter (`limiterOverSlots`) over
 * slots kept in Redis, one reserved per `acquire` by an atomic script, with a deployment-wide
 * pause-until that every reservation honours. Without Redis (an outage) it reserves from
 * `fallback`, this process's own slots, and says so once; it never fails a call because Redis is down.
 */
export function createSharedRateLimiter(options: SharedRateLimiterOptions): RateLimiter {
  const redis = withScripts(options.redis);
  const spacingMs = slotSpacingMs(options.rps).toFixed(3);
  const window = sendWindow(options.rps);
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

  const slots: SlotStore = {
    async reserve() {
      let reply: [number, number];
      try {
        reply = await redis.reserveRateLimitSlot(
          options.slotKey,
          options.pauseKey,
          spacingMs,
          String(options.maxPauseWaitMs),
        );
      } catch (error) {
        outage(error);
        return options.fallback.reserve();
      }
      answered();
      const [paused, ms] = reply;
      return paused === 1 ? { pausedMs: ms } : { waitMs: ms };
    },
    async recordSend() {
      try {
        const waitMs = await redis.recordRateLimitSend(
          options.sentKey,
          String(window.sends),
          window.windowMs.toFixed(3),
        );
        answered();
        return waitMs;
      } catch (error) {
        // The slot was reserved already (here or in the fallback), so the request keeps its
        // spacing; this process's own send log knows none of the deployment's other sends, and
        // would let every caller that waited meanwhile go at once.
        outage(error);
        return 0;
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
  return limiterOverSlots(slots, {
    ...(options.now ? { now: options.now } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
  });
}
