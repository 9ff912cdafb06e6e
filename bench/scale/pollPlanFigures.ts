import { loadConfig } from '../../src/config/loadConfig.ts';
import { callsPerHour, type PollPlan, pollPlan } from '../../src/polling/pollPlan.ts';
import { round } from './figures.ts';

/**
 * The polling plan the worker derives at the default settings (freshness targets, budget share 0.5
 * of 10 requests/s) for `pairs` suppliers and as many accounts: pure, no world needed. What the
 * scale benchmark reports beside its measured cycles, so the estimate of a poll's calls can be held
 * against the calls a measured cycle made per scope.
 */
export function defaultPlan(pairs: number): PollPlan {
  const ids = (prefix: string) => Array.from({ length: pairs }, (_, i) => `${prefix}${i + 1}`).join(',');
  return pollPlan(
    loadConfig({
      DATABASE_URL: 'postgres://bench@127.0.0.1:5432/bench',
      REDIS_URL: 'redis://127.0.0.1:6379',
      FULFILLMENT_SUPPLIER_IDS: ids('SUP'),
      FULFILLMENT_ACCOUNT_NUMBERS: ids('ACC'),
      LOG_LEVEL: 'silent',
    }),
  );
}

/** The plan's figures for the results file: totals and, per stream, target, interval, reach and cost. */
export function planFigures(plan: PollPlan, measuredCallsPerScope: Readonly<Record<string, number>> = {}) {
  return {
    pairs: Math.max(...plan.streams.map((s) => s.scopes.length)),
    budgetCallsPerSecond: plan.budgetCallsPerSecond,
    callsPerSecond: round(plan.callsPerSecond, 3),
    shareOfBudget: round(plan.callsPerSecond / plan.budgetCallsPerSecond, 3),
    callsPerHour: callsPerHour(plan),
    stretch: round(plan.stretch, 3),
    streams: Object.fromEntries(
      plan.streams.map((s) => [
        s.stream,
        {
          rule: s.rule,
          targetSeconds: s.targetSeconds,
          intervalSeconds: s.intervalSeconds,
          reachesSeconds: s.reachesSeconds,
          callsPerPoll: s.callsPerPoll,
          measuredCallsPerScope: measuredCallsPerScope[s.stream] ?? null,
          callsPerHour: s.intervalSeconds
            ? Math.round((s.scopes.length * s.callsPerPoll * 3600) / s.intervalSeconds)
            : 0,
        },
      ]),
    ),
  };
}

/** Prints the plan's figures as a table and one summary line. */
export function printPlan(figures: ReturnType<typeof planFigures>): void {
  console.log(`\nPolling plan at the default settings, ${figures.pairs} suppliers and accounts`);
  console.table(
    Object.fromEntries(
      Object.entries(figures.streams).map(([stream, s]) => [
        stream,
        {
          target:
            s.targetSeconds === null ? (s.rule === 'cadence' ? 'cadence' : '-') : `${s.targetSeconds} s`,
          interval: s.intervalSeconds === null ? 'on demand' : `${s.intervalSeconds} s`,
          reaches: s.reachesSeconds === null ? '-' : `${s.reachesSeconds} s`,
          'calls/poll': s.callsPerPoll,
          'measured calls/scope': s.measuredCallsPerScope ?? '-',
          'calls/hour': s.callsPerHour,
        },
      ]),
    ),
  );
  console.log(
    `polling: ${figures.callsPerSecond} calls/s of a ${figures.budgetCallsPerSecond} calls/s share ` +
      `(${Math.round(figures.shareOfBudget * 100)}%), ${figures.callsPerHour} calls/hour; ` +
      `every target's interval stretched x${figures.stretch}`,
  );
}
