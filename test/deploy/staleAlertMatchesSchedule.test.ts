import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { pollingRule } from '../../src/config/pollingRule.ts';
import { freshnessOf, STALE_AFTER_AIMS } from '../../src/http/status/freshness.ts';
import { desiredSchedules } from '../../src/worker/schedules.ts';

/**
 * FulfillmentStreamStale (deploy/prometheus/alerts.yml) and the status page's "stale" badge judge a
 * stream and scope's data age against three of what its polling aims for (its freshness target,
 * exported as fulfillment_stream_freshness_target_seconds). A stream and scope polled on its
 * schedule, with every run succeeding, is not stale: just before its next poll its data is as old
 * as the interval the worker schedules it at, and that must stay within three aims. Otherwise the
 * alert fires for good on a healthy deployment with the default settings, and pages whoever is on
 * call for nothing (at one pair, and at 100 pairs whose budget stretches the intervals).
 */

const ids = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}${100 + i}`).join(',');

describe.each([1, 100])('default settings, %i supplier and account pair(s)', (pairs) => {
  const config = loadConfig({
    DATABASE_URL: 'postgres://localhost/unused',
    FULFILLMENT_SUPPLIER_IDS: ids('SUP', pairs),
    FULFILLMENT_ACCOUNT_NUMBERS: ids('1', pairs),
  });

  it('no stream and scope polled on its schedule is stale, nor fires the freshness alert', () => {
    const at = new Date('2026-06-02T18:00:00Z');
    const stale: string[] = [];
    for (const schedule of desiredSchedules(config)) {
      const rule = pollingRule(config.streams[schedule.stream]);
      if (rule.kind !== 'target') continue;
      // Just before the next poll: the last successful read is one interval old.
      const lastSuccess = new Date(at.getTime() - schedule.everyMs);
      const { state } = freshnessOf(rule, lastSuccess, at);
      if (state === 'stale') {
        stale.push(
          `${schedule.stream}/${schedule.scope}: polled every ${schedule.everyMs / 1000} s, stale past ${STALE_AFTER_AIMS * rule.seconds} s`,
        );
      }
    }
    expect(stale.slice(0, 8)).toEqual([]);
  });
});
