import { afterAll, describe, expect, it } from 'vitest';
import { migrateAction } from '../../src/cli/actions/migrate.ts';
import { createCliContext } from '../../src/cli/context.ts';
import { runCli } from '../../src/cli/run.ts';
import { freshDatabaseUrl } from '../helpers/db.ts';

const target = freshDatabaseUrl();
afterAll(() => target.drop());

function capture() {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: { log: (l: string) => lines.push(l), error: (l: string) => errors.push(l) } };
}

describe('fulfillment-sync migrate', () => {
  it('creates the database, migrates it, then reports it up to date', async () => {
    const first = capture();
    expect(await migrateAction(target.url, first.out)).toBe(0);
    expect(first.lines).toEqual([
      expect.stringMatching(/^created database ".+"; applied \d+ of \d+ migrations/),
    ]);

    const second = capture();
    expect(await migrateAction(target.url, second.out)).toBe(0);
    expect(second.lines[0]).toMatch(/already up to date/);
  });

  it('fails with exit code 1 and a message without the password when Postgres is unreachable', async () => {
    const bad = new URL(target.url);
    bad.port = '1';
    bad.password = 'pw-never-printed';
    const run = capture();
    expect(await migrateAction(bad.toString(), run.out)).toBe(1);
    expect(run.errors.join('\n')).toMatch(/Cannot connect to database/);
    expect(run.errors.join('\n')).not.toContain('pw-never-printed');
  });

  it('runs as `fulfillment-sync migrate` with DATABASE_URL from the environment', async () => {
    const run = capture();
    const previousCode = process.exitCode;
    try {
      const context = createCliContext({
        env: { ...process.env, DATABASE_URL: target.url, LOG_LEVEL: 'silent' },
        print: run.out.log,
        printError: run.out.error,
      });
      expect(await runCli(['node', 'fulfillment-sync', 'migrate'], context)).toBe(0);
      expect(run.lines).toEqual([expect.stringMatching(/already up to date|applied/)]);
    } finally {
      process.exitCode = previousCode;
    }
  });
});
