import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { callsPerPoll } from '../../src/polling/callsPerPoll.ts';
import { stretchNotice } from '../../src/polling/planNotice.ts';
import {
  POLL_ALLOWANCE_SECONDS,
  POLL_FLOOR_SECONDS,
  type PollPlan,
  pollPlan,
} from '../../src/polling/pollPlan.ts';

/** The configuration as loaded with its defaults for `pairs` suppliers and as many accounts. */
function defaults(pairs: number, env: Record<string, string> = {}) {
  const ids = (p: string) => Array.from({ length: pairs }, (_, i) => `${p}${i + 1}`).join(',');
  return loadConfig({
    DATABASE_URL: 'postgres://root@127.0.0.1:5432/postgres',
    REDIS_URL: 'redis://127.0.0.1:6379',
    FULFILLMENT_SUPPLIER_IDS: ids('SUP'),
    FULFILLMENT_ACCOUNT_NUMBERS: ids('ACC'),
    LOG_LEVEL: 'silent',
    ...env,
  });
}

const of = (plan: PollPlan, stream: string) => plan.streams.find((s) => s.stream === stream)!;
/** The calls per second the plan's polls make, recomputed from its parts. */
const rate = (plan: PollPlan) =>
  plan.streams.reduce(
    (total, s) => total + (s.intervalSeconds ? (s.scopes.length * s.callsPerPoll) / s.intervalSeconds : 0),
    0,
  );

describe('pollPlan', () => {
  it('polls one pair at its targets (less the allowance), unstretched, within the share', () => {
    const plan = pollPlan(defaults(1));
    expect(plan.stretch).toBe(1);
    for (const stream of ['shipments', 'inventory', 'returns', 'invoices', 'transfers_in', 'transfers_out']) {
      expect(of(plan, stream)).toMatchObject({
        rule: 'target',
        targetSeconds: 60,
        intervalSeconds: 60 - POLL_ALLOWANCE_SECONDS,
        reachesSeconds: 60,
      });
    }
    expect(of(plan, 'products')).toMatchObject({ targetSeconds: 86_400, reachesSeconds: 86_400 });
    expect(plan.budgetCallsPerSecond).toBe(5); // 0.5 of the default 10 calls/s
    expect(plan.callsPerSecond).toBeCloseTo(rate(plan));
    expect(plan.callsPerSecond).toBeLessThanOrEqual(plan.budgetCallsPerSecond);
  });

  it('stretches every target-derived interval by one factor for 100 pairs, staying within the share', () => {
    const one = pollPlan(defaults(1));
    const plan = pollPlan(defaults(100));
    expect(plan.stretch).toBeGreaterThan(1);
    expect(plan.overBudget).toBe(false);
    expect(plan.callsPerSecond).toBeCloseTo(rate(plan));
    expect(plan.callsPerSecond).toBeLessThanOrEqual(plan.budgetCallsPerSecond);
    // Within a second of rounding up, interval = the unstretched one x the factor.
    const shipments = of(plan, 'shipments').intervalSeconds!;
    expect(shipments).toBe(Math.ceil(of(one, 'shipments').intervalSeconds! * plan.stretch));
    expect(of(plan, 'shipments').reachesSeconds).toBe(shipments + POLL_ALLOWANCE_SECONDS);
    // The cadence stream (inventory activity, no target) keeps its hour.
    expect(of(plan, 'inventory_activity')).toMatchObject({ rule: 'cadence', intervalSeconds: 3600 });
    expect(of(plan, 'shipments').scopes).toHaveLength(100);
  });

  it('keeps an explicit cadence over the target, and its calls come off the budget first', () => {
    const explicit = { invoices: { cadenceMinutes: 1440 }, inventory: { cadenceMinutes: 1 } };
    const plan = pollPlan(defaults(1, { FULFILLMENT_STREAMS: JSON.stringify(explicit) }));
    expect(of(plan, 'invoices')).toMatchObject({
      rule: 'cadence',
      targetSeconds: null,
      intervalSeconds: 86_400,
    });
    expect(of(plan, 'inventory')).toMatchObject({ rule: 'cadence', intervalSeconds: 60 });

    // A budget the explicit cadences fill (40 x 1/min > 0.5/s): the targets stretch, the cadences do not.
    const tight = pollPlan(
      defaults(40, { FULFILLMENT_STREAMS: JSON.stringify(explicit), FULFILLMENT_RATE_LIMIT_RPS: '1' }),
    );
    expect(of(tight, 'inventory').intervalSeconds).toBe(60);
    expect(tight.stretch).toBeGreaterThan(1);
    expect(tight.overBudget).toBe(true);
    expect(of(tight, 'shipments').intervalSeconds).toBeGreaterThan(45);
  });

  it('does not poll an on-demand stream', () => {
    const plan = pollPlan(defaults(3));
    expect(of(plan, 'orders')).toMatchObject({
      rule: 'on-demand',
      intervalSeconds: null,
      reachesSeconds: null,
      callsPerPoll: 0,
    });
  });

  it('never polls a stream and scope more often than the floor', () => {
    const fast = { shipments: { freshnessSeconds: 5 }, returns: { freshnessSeconds: 40 } };
    const plan = pollPlan(defaults(1, { FULFILLMENT_STREAMS: JSON.stringify(fast) }));
    expect(of(plan, 'shipments')).toMatchObject({ intervalSeconds: POLL_FLOOR_SECONDS, reachesSeconds: 45 });
    expect(of(plan, 'returns').intervalSeconds).toBe(POLL_FLOOR_SECONDS);
  });
});

describe('callsPerPoll', () => {
  const settings = { rereadDays: 0, windowSize: 1, lookbackMinutes: 0 };
  it('counts the windows a steady-state poll plans', () => {
    expect(callsPerPoll('shipments', { ...settings, lookbackMinutes: 120, windowSize: 31 * 1440 }, 45)).toBe(
      1,
    );
    expect(callsPerPoll('shipments', { ...settings, lookbackMinutes: 120, windowSize: 60 }, 45)).toBe(3);
    // Whole horizon in one window; returns add a call per open status (NEW, IN_PROCESS).
    expect(callsPerPoll('invoices', { ...settings, rereadDays: 90, windowSize: 91 }, 45)).toBe(1);
    expect(callsPerPoll('returns', { ...settings, rereadDays: 30, windowSize: 31 }, 45)).toBe(3);
    expect(callsPerPoll('returns', { ...settings, rereadDays: 30, windowSize: 10 }, 45)).toBe(6);
    // transfers in: the horizon plus one call per open status (PROCESSING, DRAFT, SUBMITTED).
    expect(callsPerPoll('transfers_in', { ...settings, rereadDays: 90, windowSize: 91 }, 45)).toBe(4);
    // Inventory activity reads one day per call whatever its windowSize: yesterday and today.
    expect(callsPerPoll('inventory_activity', { ...settings, rereadDays: 1, windowSize: 91 }, 3600)).toBe(2);
    expect(callsPerPoll('inventory', settings, 45)).toBe(1);
  });
});

describe('stretchNotice', () => {
  it('says nothing when the targets fit, and what freshness each stream reaches when they do not', () => {
    expect(stretchNotice(pollPlan(defaults(1)))).toBeUndefined();
    const plan = pollPlan(defaults(100));
    const notice = stretchNotice(plan)!;
    expect(notice).toContain(`intervals stretched x${plan.stretch.toFixed(2)}`);
    expect(notice).toContain(`shipments ${of(plan, 'shipments').reachesSeconds} s (target 60 s)`);
    expect(notice).toContain('of 5.00 calls/s');
    // Streams a cadence sets are not stretched, so the line leaves them out.
    expect(notice).not.toContain('inventory_activity');
  });
});
