import {
  askToSend,
  EMPTY_SEND_LOG,
  pauseSendLog,
  type SendDecision,
  type SendLogState,
  type SendWindowRule,
  sendWindowRule,
  stampSend,
} from './sendWindow.ts';

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
 * Where a budget's send log is kept and the rule of sendWindow.ts applied, atomically: this
 * process's memory (`memorySendGate`) or Redis for a whole deployment (src/ratelimit).
 */
export interface SendGate {
  /** The rule it applies (the limiter needs its spacing). */
  readonly rule: SendWindowRule;
  /** Asks to send; `member` names this request (the same member again moves its turn). */
  ask(member: string): Promise<SendDecision>;
  /** Re-dates `member`'s entry to now, as the request goes: not awaited, best effort. */
  stamp(member: string): void;
  pause(ms: number): Promise<void>;
}

export interface Clock {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The one rate limiter, over a gate in memory or in Redis. Callers of one process take turns (a
 * queue): only the first asks the gate, so a budget is asked once per request, not once per waiting
 * caller, and a turn is given to a caller that is ready to use it. A caller with a turn sleeps until
 * it and goes, however late its timer fires, re-dating its entry as it goes (see sendWindow.ts);
 * one later than a whole spacing asks again. The wake-up is counted from when it asked, so a reply
 * read late on a busy loop does not add its delay.
 */
export function limiterOverGate(gate: SendGate, clock: Partial<Clock> = {}): RateLimiter {
  const now = clock.now ?? Date.now;
  const sleep = clock.sleep ?? defaultSleep;
  let turn: Promise<unknown> = Promise.resolve();
  let requests = 0;

  async function waitToSend(): Promise<void> {
    requests += 1;
    const member = String(requests);
    for (;;) {
      const asked = now();
      const decision = await gate.ask(member);
      if (decision.kind === 'paused') throw new RateLimitPausedError(decision.pausedMs);
      const wakeAt = asked + (decision.kind === 'send' ? 0 : decision.waitMs);
      if (wakeAt > now()) await sleep(Math.ceil(wakeAt - now()));
      if (decision.kind === 'wait') continue;
      if (decision.kind === 'turn' && now() - wakeAt > gate.rule.spacingMs) continue;
      gate.stamp(member);
      return;
    }
  }

  return {
    acquire() {
      const mine = turn.then(waitToSend);
      // The next caller's turn comes when this one has gone or given up.
      turn = mine.catch(() => undefined);
      return mine;
    },
    pause: (ms) => gate.pause(ms),
  };
}

export interface MemorySendGateOptions {
  /** Requests per second; must be > 0 and finite. */
  rps: number;
  /** A pause longer than this is answered as paused instead of waited for (default: wait any time). */
  maxPauseWaitMs?: number;
  now?: () => number;
}

/** A budget's send log in this process's memory: one process alone, or the fallback while Redis is down. */
export function memorySendGate(options: MemorySendGateOptions): SendGate {
  const now = options.now ?? Date.now;
  const rule = sendWindowRule(options.rps);
  const maxPauseWaitMs = options.maxPauseWaitMs ?? Number.POSITIVE_INFINITY;
  let state: SendLogState = EMPTY_SEND_LOG;
  return {
    rule,
    async ask(member) {
      const next = askToSend(state, rule, { now: now(), member, maxPauseWaitMs });
      state = next.state;
      return next.decision;
    },
    stamp(member) {
      state = stampSend(state, rule, member, now());
    },
    async pause(ms) {
      state = pauseSendLog(state, now(), ms);
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
 * A limiter for one process: `limiterOverGate` over `memorySendGate`. The shared limiter
 * (src/ratelimit) is the same limiter over the gate in Redis.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  if (!limitsRate(options.rps)) return NO_RATE_LIMIT;
  const { now, sleep } = options;
  const gate = memorySendGate({ rps: options.rps, maxPauseWaitMs: options.maxPauseWaitMs, now });
  return limiterOverGate(gate, { ...(now ? { now } : {}), ...(sleep ? { sleep } : {}) });
}
