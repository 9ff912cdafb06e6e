import { type PollingRule, pollingRule } from '../config/pollingRule.ts';
import { type Config, STREAM_NAMES, type StreamName } from '../config/types.ts';
import { scopesOf } from '../worker/streamScopes.ts';
import { callsPerPoll } from './callsPerPoll.ts';

/**
 * The polling plan, pure: how often each stream x scope is polled so that changes reach subscribers
 * within the stream's freshness target while all polls together stay within the polling share of
 * the upstream budget (FULFILLMENT_POLL_BUDGET_SHARE x FULFILLMENT_RATE_LIMIT_RPS, deployment-wide).
 */

/**
 * Never more often than one poll per stream and scope per 30 s. A run takes a few seconds (token,
 * list call, diff, outbox), so a shorter period would queue runs behind each other; shipments are
 * read in minute windows, so two polls a minute already see every minute the upstream has; and a
 * call per 30 s per pair is 100 pairs x 8 streams / 30 s = 27 calls/s, far over any budget we know.
 */
export const POLL_FLOOR_SECONDS = 30;

/**
 * What a poll adds to a change's age beyond the wait for the next poll: the run (token, calls, diff,
 * outbox write) and the webhook delivery. A target-derived interval leaves this much of the target
 * for them, so a change made just after a poll still reaches subscribers within the target.
 */
export const POLL_ALLOWANCE_SECONDS = 15;

/** One stream's polling under the plan; the same for each of its scopes. */
export interface StreamPoll {
  stream: StreamName;
  rule: PollingRule['kind'];
  /** The freshness target (rule 'target'); null otherwise. */
  targetSeconds: number | null;
  /** Seconds between two polls of one scope; null for on-demand streams. */
  intervalSeconds: number | null;
  /** The oldest a change gets before it reaches subscribers: the interval plus the allowance. */
  reachesSeconds: number | null;
  /** Upstream calls one poll of one scope costs (callsPerPoll.ts; an estimate). */
  callsPerPoll: number;
  scopes: readonly string[];
}

export interface PollPlan {
  streams: StreamPoll[];
  /** The factor every target-derived interval was stretched by to fit the budget (1: none). */
  stretch: number;
  /** Calls per second all polls of all scopes make under the plan. */
  callsPerSecond: number;
  /** The polling share of the budget, in calls per second. */
  budgetCallsPerSecond: number;
  /** Explicit cadences alone use the whole share: targets got a tenth of it to keep running. */
  overBudget: boolean;
}

export type PollPlanConfig = Pick<Config, 'streams' | 'supplierIds' | 'accountNumbers' | 'polling'> & {
  api: Pick<Config['api'], 'rateLimitRps'>;
};

/** The share targets keep when explicit cadences alone use the budget: they run late, not never. */
const MIN_TARGET_SHARE = 0.1;

/**
 * Derives the plan: a target gives the interval `target - allowance` (at least the floor); a cadence
 * (explicit, or a stream without target) is its own interval and takes its share of the budget
 * first; when the target-derived polls together ask more than what remains, all of them stretch by
 * the same factor. On-demand streams (orders) are not polled.
 */
export function pollPlan(config: PollPlanConfig): PollPlan {
  const budget = config.polling.budgetShare * config.api.rateLimitRps;
  const base = STREAM_NAMES.map((stream) => basePoll(config, stream));
  const rateOf = (polls: readonly StreamPoll[], rule: PollingRule['kind']) =>
    sum(polls.filter((p) => p.rule === rule).map(pollRate));
  const fixed = rateOf(base, 'cadence');
  const wanted = rateOf(base, 'target');
  const left = budget - fixed;
  const overBudget = wanted > 0 && left < budget * MIN_TARGET_SHARE;
  const available = Math.max(left, budget * MIN_TARGET_SHARE);
  const stretch = wanted > available ? wanted / available : 1;
  const streams = base.map((p) => (p.rule === 'target' && stretch > 1 ? stretched(config, p, stretch) : p));
  return {
    streams,
    stretch,
    callsPerSecond: sum(streams.map(pollRate)),
    budgetCallsPerSecond: budget,
    overBudget,
  };
}

/** The stream's poll before any stretching. */
function basePoll(config: PollPlanConfig, stream: StreamName): StreamPoll {
  const settings = config.streams[stream];
  const rule = pollingRule(settings);
  const scopes = scopesOf(config, stream);
  if (rule.kind === 'on-demand') {
    const none = { targetSeconds: null, intervalSeconds: null, reachesSeconds: null };
    return { stream, rule: rule.kind, ...none, callsPerPoll: 0, scopes };
  }
  const wanted = rule.kind === 'target' ? rule.seconds - POLL_ALLOWANCE_SECONDS : rule.seconds;
  const interval = Math.max(POLL_FLOOR_SECONDS, Math.ceil(wanted));
  return {
    stream,
    rule: rule.kind,
    targetSeconds: rule.kind === 'target' ? rule.seconds : null,
    ...timing(interval),
    callsPerPoll: callsPerPoll(stream, settings, interval),
    scopes,
  };
}

/** A target-derived poll stretched by `factor`, rounded up to whole seconds (never over the budget). */
function stretched(config: PollPlanConfig, poll: StreamPoll, factor: number): StreamPoll {
  const interval = Math.max(POLL_FLOOR_SECONDS, Math.ceil((poll.intervalSeconds ?? 0) * factor));
  return {
    ...poll,
    ...timing(interval),
    callsPerPoll: callsPerPoll(poll.stream, config.streams[poll.stream], interval),
  };
}

function timing(interval: number): Pick<StreamPoll, 'intervalSeconds' | 'reachesSeconds'> {
  return { intervalSeconds: interval, reachesSeconds: interval + POLL_ALLOWANCE_SECONDS };
}

/** Calls per second of one stream's polls over all its scopes. */
function pollRate(poll: StreamPoll): number {
  return poll.intervalSeconds ? (poll.scopes.length * poll.callsPerPoll) / poll.intervalSeconds : 0;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

/** Calls per hour all polls make under the plan (bench and status figures). */
export function callsPerHour(plan: PollPlan): number {
  return Math.round(plan.callsPerSecond * 3600);
}
