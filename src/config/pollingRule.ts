import type { StreamSettings } from './types.ts';

/**
 * What sets a stream's polling: its freshness target (the scheduler derives the interval from it and
 * the budget), a cadence (set explicitly in FULFILLMENT_STREAMS it wins over the target; without a
 * target it is the schedule), or nothing (on demand only, like orders).
 */
export type PollingRule =
  | { kind: 'target'; seconds: number }
  | { kind: 'cadence'; seconds: number }
  | { kind: 'on-demand' };

/** The rule that governs a stream's polling under its settings. Pure. */
export function pollingRule(
  settings: Pick<StreamSettings, 'cadenceMinutes' | 'cadenceIsExplicit' | 'freshnessSeconds'>,
): PollingRule {
  if (settings.freshnessSeconds > 0 && !settings.cadenceIsExplicit) {
    return { kind: 'target', seconds: settings.freshnessSeconds };
  }
  if (settings.cadenceMinutes > 0) return { kind: 'cadence', seconds: settings.cadenceMinutes * 60 };
  return { kind: 'on-demand' };
}
