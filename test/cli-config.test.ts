import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { linesOf, runSourceCli } from './helpers/cli.ts';

/** Runs the CLI as a user would (a process) with only the given environment. */
function runCli(args: string[], env: Record<string, string> = {}, cwd?: string) {
  // PATH/HOME only: the test must not depend on (or leak) the developer's own variables.
  return runSourceCli(args, {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    ...(cwd ? { cwd } : {}),
  });
}

const projects = mkdtempSync(path.join(tmpdir(), 'fs-dotenv-'));
afterAll(() => rmSync(projects, { recursive: true, force: true }));

/** A working directory holding a .env with these lines. */
function withDotEnv(name: string, lines: string[]): string {
  const dir = mkdtempSync(path.join(projects, `${name}-`));
  writeFileSync(path.join(dir, '.env'), `${lines.join('\n')}\n`);
  return dir;
}

describe('fulfillment-sync config', () => {
  it('exits 2 with exactly one line naming a bad variable, no stack trace', async () => {
    const result = await runCli(['config'], { FULFILLMENT_TIMEOUT_MS: 'abc' });
    expect(result.code).toBe(2);
    const lines = result.stderr.split('\n').filter((line) => line.trim() !== '');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^FULFILLMENT_TIMEOUT_MS: /);
    expect(result.stderr).not.toMatch(/\bat .*\.ts:\d+/);
    expect(result.stdout).toBe('');
  });

  it('prints the effective configuration with the token redacted', async () => {
    const result = await runCli(['config'], {
      FULFILLMENT_API_URL: 'https://api.example.com',
      FULFILLMENT_API_TOKEN: 'sekret-xyz',
      DATABASE_URL: 'postgres://app:db-sekret@db:5432/wh',
    });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout + result.stderr).not.toContain('sekret');
    const printed = JSON.parse(result.stdout) as {
      api: { token: string };
      databaseUrl: string;
      sandbox: boolean;
    };
    expect(printed.api.token).toBe('***');
    expect(printed.databaseUrl).toBe('postgres://app:***@db:5432/wh');
    expect(printed.sandbox).toBe(false);
  });

  it('prints one JSON line with --json', async () => {
    const result = await runCli(['config', '--json']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim().split('\n')).toHaveLength(1);
    expect(JSON.parse(result.stdout)).toMatchObject({ sandbox: true, timezone: 'America/Los_Angeles' });
  });

  it('exits 2 on an unknown command or option', async () => {
    const unknownCommand = await runCli(['no-such-command']);
    expect(unknownCommand.code).toBe(2);
    expect(unknownCommand.stderr).toMatch(/unknown command/);
    const unknownOption = await runCli(['config', '--nope']);
    expect(unknownOption.code).toBe(2);
    expect(unknownOption.stderr).toMatch(/unknown option/);
  });

  it.each([
    [['no-such-command'], /unknown command 'no-such-command'/],
    [['config', '--nope'], /unknown option '--nope'/],
    [['backfill'], /required option '--stream <name>' not specified/],
    // A command group without one of its commands named its commands in one line, not its whole help.
    [['webhooks'], /^error: 'webhooks' needs one of its commands: add, list, .*replay/],
    [['webhooks', 'nope'], /^error: unknown command 'webhooks nope'; its commands: add, /],
  ])('a usage error (%j) is exactly one line on stderr, exit 2', async (args, line) => {
    const result = await runCli(args);
    expect(result.code).toBe(2);
    expect(linesOf(result.stderr), result.stderr).toEqual([expect.stringMatching(line)]);
    expect(result.stdout).toBe('');
  });

  it('exits 0 on --help', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('config');
  });

  it('reads .env from the working directory; the real environment wins over it, even when blank', async () => {
    const dir = withDotEnv('env-wins', [
      '# as in .env.example',
      'FULFILLMENT_TIMEZONE=Europe/Paris',
      'FULFILLMENT_TIMEOUT_MS=1234',
      'FULFILLMENT_RATE_LIMIT_RPS=3',
      'WORKER_CONCURRENCY=7',
    ]);
    const result = await runCli(
      ['config', '--json'],
      { FULFILLMENT_TIMEOUT_MS: '999', FULFILLMENT_RATE_LIMIT_RPS: '' },
      dir,
    );
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const printed = JSON.parse(result.stdout);
    expect(printed.timezone).toBe('Europe/Paris');
    expect(printed.worker.concurrency).toBe(7);
    expect(printed.api.timeoutMs).toBe(999);
    // Blank in the environment: set (so the file does not fill it), and blank counts as unset: the default.
    expect(printed.api.rateLimitRps).toBe(10);
  });

  it('validates what .env sets like the environment: one line naming the variable, exit 2', async () => {
    const dir = withDotEnv('env-bad', ['FULFILLMENT_TIMEOUT_MS=soon']);
    const result = await runCli(['config'], {}, dir);
    expect(result.code).toBe(2);
    expect(linesOf(result.stderr)).toEqual([expect.stringMatching(/^FULFILLMENT_TIMEOUT_MS: /)]);
  });
});
