import type { PollPlan } from './pollPlan.ts';

/**
 * The one startup line that says the budget is too small for the freshness targets: by how much every
 * target-derived interval stretched and what freshness each stream reaches instead. Undefined when
 * the targets fit. Pure.
 */
export function stretchNotice(plan: PollPlan): string | undefined {
  if (plan.stretch <= 1) return undefined;
  const reached = plan.streams
    .filter((s) => s.rule === 'target' && s.scopes.length > 0)
    .map((s) => `${s.stream} ${s.reachesSeconds} s (target ${s.targetSeconds} s)`)
    .join(', ');
  const budget = `${plan.callsPerSecond.toFixed(2)} of ${plan.budgetCallsPerSecond.toFixed(2)} calls/s`;
  const over = plan.overBudget ? '; explicit cadences alone use the polling share' : '';
  return (
    `polling budget too small for the freshness targets: intervals stretched x${plan.stretch.toFixed(2)} ` +
    `(${budget}${over}); changes reach subscribers within: ${reached}. ` +
    'Raise FULFILLMENT_RATE_LIMIT_RPS or FULFILLMENT_POLL_BUDGET_SHARE, or relax freshnessSeconds.'
  );
}
