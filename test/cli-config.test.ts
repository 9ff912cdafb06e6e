import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const BIN = fileURLToPath(new URL('../src/cli/bin.mjs', import.meta.url));

/** Runs the CLI as a user would (the bin file, through node) with only the given environment. */
function runCli(args: string[], env: Record<string, string> = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    // PATH/HOME only: the test must not depend on (or leak) the developer's own variables.
    const child = spawn(process.execPath, [BIN, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => {
      stdout += String(chunk);
    });
    child.stderr.on('data', (chunk) => {
      stderr += String(chunk);
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
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

  it('exits 0 on --help', async () => {
    const result = await runCli(['--help']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('config');
  });
});
