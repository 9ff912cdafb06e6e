import { Command } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateAction, registerMigrateCommand } from '../../src/cli/commands/migrate.ts';
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

  it('is registered as a command that reads DATABASE_URL', async () => {
    const previous = { url: process.env.DATABASE_URL, code: process.exitCode };
    process.env.DATABASE_URL = target.url;
    try {
      const program = new Command().exitOverride();
      registerMigrateCommand(program);
      await program.parseAsync(['node', 'fulfillment-sync', 'migrate']);
      expect(process.exitCode).toBe(0);
    } finally {
      if (previous.url === undefined) delete process.env.DATABASE_URL;
      else process.env.DATABASE_URL = previous.url;
      process.exitCode = previous.code;
    }
  });
});
