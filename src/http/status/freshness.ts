import type { PollingRule } from '../../config/pollingRule.ts';

/**
 * How fresh a stream x scope is, judged the way the alerts judge it: its data age (since its last
 * successful read) against what its polling aims for (the freshness target, or the cadence that
 * schedules it). Pure.
 */
export type FreshnessState = 'never' | 'stale' | 'behind' | 'fresh' | 'on-demand';

export interface Freshness {
  state: FreshnessState;
  /** Seconds since the last successful read; null before the first. */
  ageSeconds: number | null;
  /** What the polling aims for, in seconds; null for on-demand streams. */
  aimSeconds: number | null;
}

/** Past this many aims a stream is stale: FulfillmentStreamStale and FulfillmentStreamLagging fire. */
export const STALE_AFTER_AIMS = 3;

export function freshnessOf(rule: PollingRule, lastSuccessAt: Date | null, at: Date): Freshness {
  const ageSeconds = lastSuccessAt
    ? Math.max(0, Math.round((at.getTime() - lastSuccessAt.getTime()) / 1000))
    : null;
  const aimSeconds = rule.kind === 'on-demand' ? null : rule.seconds;
  if (ageSeconds === null) return { state: 'never', ageSeconds, aimSeconds };
  if (aimSeconds === null) return { state: 'on-demand', ageSeconds, aimSeconds };
  if (ageSeconds > STALE_AFTER_AIMS * aimSeconds) return { state: 'stale', ageSeconds, aimSeconds };
  if (ageSeconds > aimSeconds) return { state: 'behind', ageSeconds, aimSeconds };
  return { state: 'fresh', ageSeconds, aimSeconds };
}

/** Worst first: what needs a look tops the page. */
export const FRESHNESS_ORDER: readonly FreshnessState[] = ['never', 'stale', 'behind', 'fresh', 'on-demand'];
