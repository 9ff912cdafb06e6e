import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
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

  it('passes its unit tests: a disabled-endpoint alert for a failure, none for an operator', async ({
    skip,
  }) => {
    const result = await promtoolOrSkip(['test', 'rules', RULE_TESTS], skip);
    expect(result.output).toContain('SUCCESS');
    expect(result.code, result.output).toBe(0);
  });
});
