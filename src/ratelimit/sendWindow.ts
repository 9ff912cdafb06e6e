/**
 * The rule every upstream budget follows, in this process's memory or in Redis (src/ratelimit/
 * scripts.ts runs the same steps in Lua). A budget keeps a send log: one entry per request. A caller
 * asking to send is given the earliest turn `at` such that
 * - the budget is not paused (a 429 or Retry-After: it waits without a turn, then asks again),
 * - fewer than `sends` entries fall in the `windowMs` before `at` (the bound the upstream counts),
 * - `at` is `spacingMs` after the previous turn, so callers resuming after a pause or a quiet spell
 *   go spaced, not all at once,
 * and its entry goes in the log at `at`. It goes on its turn however late its timer fires (a busy
 * event loop), re-dating its entry to when it really goes (`stampSend`): no second turn is taken
 * and none is left unused, and the window counts it when it left, so it cannot bunch with the
 * on-time requests after it. Lateness costs only the window's wait, once per `sends` requests, and
 * beyond LATENESS_FORGIVEN_MS the schedule's. A caller later than one spacing asks again (its
 * entry moves to a new turn).
 * (Before: the shared limiter gave a caller over 25 ms late a fresh slot, wasting most of the budget
 * on a lagging loop; a try that let it go late without re-dating put rps + 1 into one second.)
 */
/**
 * Headroom of the window, in ms: at most `rps` requests in any (1000 + this) ms. A request reaches
 * the upstream a little after it is dated (the fetch is written on this or the next turn of the
 * event loop, then crosses the network), by an amount that varies from request to request; the
 * upstream counts arrivals, so the window is wider than one second by more than that variation. It
 * costs about 5% of the nominal rate (10/s sends at most 9.52/s). A request that first opens a
 * connection on a loaded, lagging process can take longer than this (up to 100 ms measured).
 */
export const JITTER_ALLOWANCE_MS = 50;

/** The numbers of one budget's rule. */
export interface SendWindowRule {
  /** Requests allowed per window. */
  sends: number;
  /** The window, in ms. */
  windowMs: number;
  /** The schedule's spacing (windowMs / sends). */
  spacingMs: number;
}

/**
 * The rule for `rps` requests per second (> 0): `floor(rps)` requests per (1000 + allowance) ms
 * scaled to the rate (2.5/s: 2 per 840 ms; 0.5/s: 1 per 2100 ms), so a whole rps is exact per second.
 */
export function sendWindowRule(rps: number): SendWindowRule {
  const sends = Math.max(1, Math.floor(rps));
  const windowMs = (sends * (1000 + JITTER_ALLOWANCE_MS)) / rps;
  return { sends, windowMs, spacingMs: windowMs / sends };
}

/** One request in the send log: its turn, or when it went. */
export interface SendEntry {
  member: string;
  at: number;
}

/** One budget's state. */
export interface SendLogState {
  /** Requests of the last window and turns given, by `at`, earliest first. */
  log: readonly SendEntry[];
  /** When the schedule lets the next request go. */
  nextDue: number;
  /** Until when the budget is paused. */
  pausedUntil: number;
}

export const EMPTY_SEND_LOG: SendLogState = {
  log: [],
  nextDue: Number.NEGATIVE_INFINITY,
  pausedUntil: Number.NEGATIVE_INFINITY,
};

/**
 * What a caller asking at `now` does: go now, go at its turn `waitMs` from now (then `stampSend`),
 * wait for a pause to end without a turn (then ask again), or give up because the budget is paused
 * for longer than it will wait.
 */
export type SendDecision =
  | { kind: 'send' }
  | { kind: 'turn'; waitMs: number }
  | { kind: 'wait'; waitMs: number }
  | { kind: 'paused'; pausedMs: number };

export interface SendAsk {
  now: number;
  /** Names the caller's request in the log; asking again with it moves its turn. */
  member: string;
  /** A pause longer than this is answered `paused` instead of `wait`. */
  maxPauseWaitMs: number;
}

/** Applies the rule to one ask: the decision, and the state after it. */
export function askToSend(
  state: SendLogState,
  rule: SendWindowRule,
  ask: SendAsk,
): { decision: SendDecision; state: SendLogState } {
  const { now } = ask;
  if (state.pausedUntil > now) {
    const pausedMs = state.pausedUntil - now;
    const decision: SendDecision =
      pausedMs > ask.maxPauseWaitMs ? { kind: 'paused', pausedMs } : { kind: 'wait', waitMs: pausedMs };
    return { decision, state };
  }
  const log = state.log.filter((e) => e.member !== ask.member && e.at > now - rule.windowMs);
  const newest = log.at(-1)?.at ?? Number.NEGATIVE_INFINITY;
  const windowFree =
    log.length >= rule.sends ? log[log.length - rule.sends]!.at + rule.windowMs : Number.NEGATIVE_INFINITY;
  const at = Math.max(now, state.nextDue, newest, windowFree);
  const decision: SendDecision = at > now ? { kind: 'turn', waitMs: at - now } : { kind: 'send' };
  return {
    decision,
    state: {
      log: [...log, { member: ask.member, at }],
      nextDue: at + rule.spacingMs,
      pausedUntil: state.pausedUntil,
    },
  };
}

/**
 * Lateness the schedule forgives, in ms: a request that goes this much after its turn leaves the
 * next turn where it was (so a lagging loop costs the schedule nothing); one later than that pushes
 * the next turn to (when it went + spacing - this), so two requests are never closer than
 * spacing - this (80 ms at 10/s) when the second was given its turn after the first went: callers
 * resuming after a pause do not bunch behind one whose answer was read late.
 */
export const LATENESS_FORGIVEN_MS = JITTER_ALLOWANCE_MS / 2;

/** Re-dates `member`'s entry to `now` as it goes (never earlier than its turn), and the schedule after it. */
export function stampSend(
  state: SendLogState,
  rule: SendWindowRule,
  member: string,
  now: number,
): SendLogState {
  const entry = state.log.find((e) => e.member === member);
  if (entry === undefined || now <= entry.at) return state;
  const log = state.log.map((e) => (e === entry ? { member, at: now } : e)).sort((a, b) => a.at - b.at);
  const nextDue = Math.max(state.nextDue, now + rule.spacingMs - LATENESS_FORGIVEN_MS);
  return { ...state, log, nextDue };
}

/** The state after a pause of `ms` asked at `now`: an earlier, longer pause is never shortened. */
export function pauseSendLog(state: SendLogState, now: number, ms: number): SendLogState {
  return { ...state, pausedUntil: Math.max(state.pausedUntil, now + ms) };
}
