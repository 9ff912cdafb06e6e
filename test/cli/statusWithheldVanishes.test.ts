import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliContext } from '../../src/cli/context.ts';
import { runCli } from '../../src/cli/run.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * A withheld vanish is recorded in a log line, a metric and `status` (issue 24 item 1): the rows a
 * scope kept because a shrinking answer was not confirmed must show in `fulfillment-sync status`,
 * where an operator without Prometheus or the status page looks first.
 */

let t: TestDatabase;

beforeAll(async () => {
  t = await createTestDatabase();
  await t.pool.query(
    `INSERT INTO sync.cursors (stream, scope, last_success_at) VALUES ('inventory', 'SUP1', now() - interval '1 minute')`,
  );
  // Two runs of the last day withheld a vanish (an empty answer, then a half one, not confirmed).
  await t.pool.query(
    `INSERT INTO sync.runs (stream, scope, started_at, finished_at, status, vanish_withheld) VALUES
       ('inventory', 'SUP1', now() - interval '3 hours', now() - interval '3 hours', 'succeeded', 41),
       ('inventory', 'SUP1', now() - interval '2 minutes', now() - interval '2 minutes', 'succeeded', 20),
       ('inventory', 'SUP1', now() - interval '1 minute', now() - interval '1 minute', 'succeeded', 0)`,
  );
});
afterAll(() => t?.close());

async function status(args: string[] = []) {
  const out: string[] = [];
  const code = await runCli(
    ['node', 'fulfillment-sync', 'status', ...args],
    createCliContext({
      env: { DATABASE_URL: t.url, LOG_LEVEL: 'silent', REDIS_URL: 'redis://127.0.0.1:1' },
      print: (l) => out.push(l),
      printError: () => undefined,
    }),
  );
  return { code, out };
}

describe('status shows withheld vanishes', () => {
  it('--json gives the rows withheld over the last 24 h', async () => {
    const { code, out } = await status(['--json']);
    expect(code).toBe(0);
    const [inventory] = JSON.parse(out.join('\n')).streams;
    expect(inventory).toMatchObject({ stream: 'inventory', scope: 'SUP1', vanishWithheld24h: 61 });
  });

  it('the table says which scope withheld how many rows', async () => {
    const { code, out } = await status();
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/inventory SUP1\b.*withheld.*61 rows/);
  });
});
