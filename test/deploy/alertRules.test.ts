import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { REPO_ROOT } from '../helpers/cli.ts';

/**
 * Prometheus's own checker on deploy/prometheus/alerts.yml: the rules parse and their PromQL is valid
 * (`promtool check rules`), and they fire on the series they should (`promtool test rules`, with the
 * cases in alerts.test.yml). promtool comes with Debian's `prometheus` package; .ci/run installs it.
 */

const run = promisify(execFile);
const RULES = path.join(REPO_ROOT, 'deploy/prometheus/alerts.yml');
const RULE_TESTS = path.join(REPO_ROOT, 'deploy/prometheus/alerts.test.yml');

const MISSING =
  'promtool is not installed (apt-get install --no-install-recommends prometheus): alert rules not checked';

async function promtool(args: string[]): Promise<{ code: number; output: string } | undefined> {
  try {
    const { stdout, stderr } = await run('promtool', args, { cwd: REPO_ROOT });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failed = error as NodeJS.ErrnoException & {
      code: number | string;
      stdout?: string;
      stderr?: string;
    };
    if (failed.code === 'ENOENT') return undefined;
    return { code: Number(failed.code), output: `${failed.stdout ?? ''}${failed.stderr ?? ''}` };
  }
}

/** promtool's answer, or the test is skipped saying why (only where promtool is missing). */
async function promtoolOrSkip(args: string[], skip: (note: string) => never) {
  const result = await promtool(args);
  if (!result) {
    console.warn(MISSING);
    skip(MISSING);
  }
  return result;
}

describe('deploy/prometheus/alerts.yml under promtool', () => {
  it('passes promtool check rules', async ({ skip }) => {
    const result = await promtoolOrSkip(['check', 'rules', RULES], skip);
    expect(result.output).toMatch(/SUCCESS: \d+ rules found/);
    expect(result.code, result.output).toBe(0);
  });

  it('passes its unit tests: each alert below fires where it should and stays quiet where it should not', async ({
    skip,
  }) => {
    const result = await promtoolOrSkip(['test', 'rules', RULE_TESTS], skip);
    expect(result.output).toContain('SUCCESS');
    expect(result.code, result.output).toBe(0);
  });
});

/** The alerts that must each have a promtool case that fires and one that stays quiet. */
const TESTED_ALERTS = [
  'FulfillmentWebhookEndpointDisabled',
  'FulfillmentStreamStale',
  'FulfillmentWebhookBacklogOld',
  'FulfillmentRelayBacklogOld',
  'FulfillmentWebhookEndpointFailing',
  'FulfillmentAnalyticsRefreshLate',
  'FulfillmentPruneFailed',
];

describe('deploy/prometheus/alerts.test.yml', () => {
  it('has, for each of those alerts, a case where it fires and one where it stays quiet', () => {
    const tests = parse(readFileSync(RULE_TESTS, 'utf8')) as {
      tests: { alert_rule_test: { alertname: string; exp_alerts: unknown[] }[] }[];
    };
    const cases = tests.tests.flatMap((t) => t.alert_rule_test);
    const rules = parse(readFileSync(RULES, 'utf8')) as { groups: { rules: { alert: string }[] }[] };
    const defined = rules.groups.flatMap((g) => g.rules.map((r) => r.alert));
    for (const alert of TESTED_ALERTS) {
      expect(defined, alert).toContain(alert);
      const mine = cases.filter((c) => c.alertname === alert);
      expect(
        mine.some((c) => c.exp_alerts.length > 0),
        `${alert}: a case where it fires`,
      ).toBe(true);
      expect(
        mine.some((c) => c.exp_alerts.length === 0),
        `${alert}: a case where it stays quiet`,
      ).toBe(true);
    }
  });
});
