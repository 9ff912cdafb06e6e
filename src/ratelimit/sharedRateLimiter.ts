import { randomUUID } from 'node:crypto';
import type { RedisConnection } from '../redis/connection.ts';
import type { BudgetKeys } from './keys.ts';
import { limiterOverGate, type RateLimiter, type SendGate } from './limiter.ts';
import { rateLimitScripts } from './scripts.ts';
import type { SendDecision } from './sendWindow.ts';
import { LATENESS_FORGIVEN_MS, sendWindowRule } from './sendWindow.ts';

export interface SharedRateLimiterOptions {
  /** A fail-fast connection (no offline queue): a command during an outage fails at once. */
  redis: RedisConnection;
  /** The budget's send log and schedule, and the deployment's pause key (see keys.ts). */
  keys: BudgetKeys;
  pauseKey: string;
  /** Requests per second for the whole deployment; must be > 0. */
  rps: number;
  /** A pause longer than this makes `acquire` reject (the call fails as retryable) instead of waiting. */
  maxPauseWaitMs: number;
  /** This process's own gate (same rule, memory), used while Redis does not answer, and paused alongside. */
  fallback: SendGate;
  /** Told when Redis stops answering (once per outage) and when it answers again. */
  onOutage?: (error: Error) => void;
  onRecovery?: () => void;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

type SharedLimiterRedis = RedisConnection & {
  askRateLimitSend(
    sentKey: string,
    nextDueKey: string,
    pauseKey: string,
    sends: string,
    windowMs: string,
    spacingMs: string,
    maxPauseWaitMs: string,
    member: string,
  ): Promise<string[]>;
  stampRateLimitSend(sentKey: string, nextDueKey: string, member: string, pushMs: string): Promise<number>;
  extendRateLimitPause(pauseKey: string, ms: string): Promise<number>;
};

/** Registers the scripts once per connection (ioredis sends EVALSHA, falling back to EVAL). */
function withScripts(redis: RedisConnection): SharedLimiterRedis {
  const scripted = redis as SharedLimiterRedis;
  if (typeof scripted.askRateLimitSend !== 'function') {
    const scripts = rateLimitScripts('redis');
    redis.defineCommand('askRateLimitSend', { numberOfKeys: 3, lua: scripts.askToSend });
    redis.defineCommand('stampRateLimitSend', { numberOfKeys: 2, lua: scripts.stampSend });
    redis.defineCommand('extendRateLimitPause', { numberOfKeys: 1, lua: scripts.extendPause });
  }
  return scripted;
}

/** The script's reply as a decision. */
function decisionOf(reply: readonly string[]): SendDecision {
  const [kind, ms] = reply;
  if (kind === 'send') return { kind: 'send' };
  if (kind === 'turn') return { kind: 'turn', waitMs: Number(ms) };
  if (kind === 'wait') return { kind: 'wait', waitMs: Number(ms) };
  if (kind === 'paused') return { kind: 'paused', pausedMs: Number(ms) };
  throw new Error(`unexpected reply from the rate limit script: ${JSON.stringify(reply)}`);
}

/**
 * A rate limiter shared by every process on one Redis: the limiter of src/ratelimit/limiter.ts over
 * a send log kept in Redis, where one script applies the rule of src/ratelimit/sendWindow.ts atomically
 * on Redis' clock (processes whose clocks disagree share one timeline) and a second re-dates each
 * request as it goes, with a deployment-wide pause-until every ask honours. Without Redis (an
 * outage) it asks `fallback`, this process's own send log, and says so once; it never fails a call
 * because Redis is down.
 */
export function createSharedRateLimiter(options: SharedRateLimiterOptions): RateLimiter {
  const redis = withScripts(options.redis);
  const rule = sendWindowRule(options.rps);
  const ruleArgs = [String(rule.sends), rule.windowMs.toFixed(3), rule.spacingMs.toFixed(3)] as const;
  const pushMs = (rule.spacingMs - LATENESS_FORGIVEN_MS).toFixed(3);
  // Names this limiter's requests in the send log, unique across processes.
  const limiterId = randomUUID();
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

  // While Redis does not answer, a member's turn is in the fallback's log, so is its stamp.
  const inFallback = new Set<string>();
  const gate: SendGate = {
    rule,
    async ask(member) {
      let reply: string[];
      try {
        reply = await redis.askRateLimitSend(
          options.keys.sent,
          options.keys.nextDue,
          options.pauseKey,
          ...ruleArgs,
          String(options.maxPauseWaitMs),
          `${limiterId}:${member}`,
        );
      } catch (error) {
        outage(error);
        inFallback.add(member);
        return options.fallback.ask(member);
      }
      answered();
      inFallback.delete(member);
      return decisionOf(reply);
    },
    stamp(member) {
      if (inFallback.delete(member)) return options.fallback.stamp(member);
      // Not awaited: the command is written now and the request right after it, on this turn of
      // the event loop, so Redis dates it as the request leaves. Should it fail, the request keeps
      // its turn's date; the next ask finds the outage.
      redis
        .stampRateLimitSend(options.keys.sent, options.keys.nextDue, `${limiterId}:${member}`, pushMs)
        .catch(() => undefined);
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
  return limiterOverGate(gate, {
    ...(options.now ? { now: options.now } : {}),
    ...(options.sleep ? { sleep: options.sleep } : {}),
  });
}
