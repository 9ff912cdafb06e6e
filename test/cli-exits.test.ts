import net from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { spawnSourceCli } from './helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from './helpers/db.ts';
import { testRedisPrefix } from './helpers/redis.ts';
import { freePort } from './worker/fixtures.ts';

/**
 * A failing command must end by itself; the run is killed after this ceiling, which only catches a
 * hang (a killed run has no exit code, so the test fails). How long a command takes on a busy
 * machine is not this test's business: the bounded waits themselves (Redis within 2 s) are settings
 * tested where they are read.
 */
const HANG_CEILING_MS = 60_000;

interface Finished {
  code: number | null;
  /** Non-empty lines of stdout and stderr together: what the user sees. */
  lines: string[];
}

/** Runs the CLI as a user would, with only PATH, HOME and `env`; kills it if it outlives the ceiling. */
function runCli(args: string[], env: Record<string, string>): Promise<Finished> {
  return new Promise((resolve, reject) => {
    const child = spawnSourceCli(args, {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    });
    let output = '';
    child.stdout?.on('data', (chunk) => {
      output += String(chunk);
    });
    child.stderr?.on('data', (chunk) => {
      output += String(chunk);
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), HANG_CEILING_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({
        code,
        lines: output.split('\n').filter((line) => line.trim() !== ''),
      });
    });
  });
}

/** The promise of "Every command ends": by itself (a killed run has code null), non-zero, one line, no stack trace. */
function expectPromptFailure(result: Finished, code: number, line: RegExp): void {
  expect(result.lines, result.lines.join('\n')).toHaveLength(1);
  expect(result.lines[0]).toMatch(line);
  expect(result.lines[0]).not.toMatch(/\bat .*\.(ts|js|mjs):\d+/);
  expect(result.code).toBe(code);
}

let t: TestDatabase;
let env: Record<string, string>;

beforeAll(async () => {
  t = await createTestDatabase();
  env = {
    DATABASE_URL: t.url,
    REDIS_URL: inject('redisUrl'),
    FULFILLMENT_QUEUE_PREFIX: testRedisPrefix('cli-exits'),
    HTTP_PORT: '0',
  };
});
afterAll(() => t?.close());

describe('a failing command prints one line and exits non-zero by itself', () => {
  it.each(['abc', '0', '-5'])('worker --concurrency %s: exit 2', async (value) => {
    const result = await runCli(['worker', '--concurrency', value], env);
    expectPromptFailure(result, 2, /--concurrency/);
  });

  it('worker whose HTTP_PORT is taken: exit 1, naming the port', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '0.0.0.0', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const result = await runCli(['worker'], { ...env, HTTP_PORT: String(port) });
      expectPromptFailure(result, 1, new RegExp(`HTTP_PORT ${port}`));
    } finally {
      blocker.close();
    }
  });

  it('worker whose Redis is unreachable: exit 1 after a bounded wait', async () => {
    const port = await freePort();
    const result = await runCli(['worker'], { ...env, REDIS_URL: `redis://127.0.0.1:${port}` });
    expectPromptFailure(result, 1, new RegExp(`Redis at redis://127.0.0.1:${port} .*unreachable`));
  });

  it('webhooks replay --event of no such event: exit 1', async () => {
    const result = await runCli(['webhooks', 'replay', '--event', 'nonsense'], env);
    expectPromptFailure(result, 1, /no event nonsense/i);
  });

  it('webhooks replay with --from after --to: exit 2', async () => {
    const result = await runCli(
      ['webhooks', 'replay', '--from', '2026-02-01T00:00:00Z', '--to', '2026-01-01T00:00:00Z'],
      env,
    );
    expectPromptFailure(result, 2, /--from .*before --to/);
  });

  it('webhooks replay of a range that holds no event: exit 1', async () => {
    const result = await runCli(
      ['webhooks', 'replay', '--from', '1990-01-01T00:00:00Z', '--to', '1990-01-02T00:00:00Z'],
      env,
    );
    expectPromptFailure(result, 1, /no event occurred/i);
  });

  it('an out-of-range FULFILLMENT_STREAMS value: exit 2 naming the stream and field', async () => {
    const result = await runCli(['sync', '--once', '--stream', 'shipments'], {
      ...env,
      FULFILLMENT_STREAMS: '{"shipments": {"lookbackMinutes": 1e8}}',
    });
    expectPromptFailure(result, 2, /^FULFILLMENT_STREAMS \(at shipments\.lookbackMinutes\)/);
  });
});
