import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliContext } from '../../src/cli/context.ts';
import { runCli } from '../../src/cli/run.ts';
import { EVENT_TYPES } from '../../src/events/types.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { type CliResult, linesOf, REPO_ROOT, runSourceCli } from '../helpers/cli.ts';
import { createTestDatabase, LOCAL_RECEIVERS } from './harness.ts';

/**
 * The new `webhooks` commands and `events types` as a user runs them: bad input is one line on
 * stderr and a non-zero exit (2 for a bad command line, 1 for an id that does not exist), never a
 * stack trace; --json output parses. Most command lines run through `runCli` in this process (the
 * same parsing, actions and exit codes as the binary, without a Node start each); two run as real
 * processes to show the same on stdout, stderr and the exit status.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let endpointId = '';
let secret = '';
beforeAll(async () => {
  database = await createTestDatabase();
  const endpoint = await addEndpoint(database.pool, { url: 'http://127.0.0.1:9/hook' }, LOCAL_RECEIVERS);
  endpointId = endpoint.id;
  secret = endpoint.secret;
});
afterAll(() => database?.drop());

function env(): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
}

/** One command line through `runCli` in this process, its outputs captured. */
async function cli(args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const context = createCliContext({
    env: env(),
    print: (line) => {
      stdout += `${line}\n`;
    },
    printError: (line) => {
      stderr += `${line}\n`;
    },
  });
  try {
    const code = await runCli(['node', 'fulfillment-sync', ...args], context);
    return { code, stdout, stderr };
  } finally {
    // An action that answers "failed" sets the process's exit code: not this test process's.
    process.exitCode = undefined;
  }
}

async function runAll(commands: string[][]): Promise<CliResult[]> {
  const results: CliResult[] = [];
  for (const args of commands) results.push(await cli(args));
  return results;
}

describe('webhooks command line', () => {
  it('refuses bad input with one line and a non-zero exit', async () => {
    const cases: Array<{ args: string[]; code: number; line: RegExp }> = [
      {
        args: ['webhooks', 'get', 'ep_nope'],
        code: 1,
        line: /^error: No endpoint ep_nope: see `webhooks list`\.$/,
      },
      {
        args: ['webhooks', 'update', 'ep_nope', '--description', 'x'],
        code: 1,
        line: /^error: No endpoint ep_nope/,
      },
      {
        args: ['webhooks', 'recover', 'ep_nope', '--since', '1h'],
        code: 1,
        line: /^error: No endpoint ep_nope/,
      },
      {
        args: ['webhooks', 'recover', endpointId, '--since', 'last tuesday'],
        code: 2,
        line: /--since.*"last tuesday" is not a time: use ISO 8601/,
      },
      { args: ['webhooks', 'recover', endpointId], code: 2, line: /required option '--since <time>'/ },
      {
        args: ['webhooks', 'attempts', '--since', '2026-99-99'],
        code: 2,
        line: /"2026-99-99" is not a time/,
      },
      {
        args: ['webhooks', 'attempts', '--status', 'pending'],
        code: 2,
        line: /"pending" is not a status: use succeeded, failed, gave_up/,
      },
      {
        args: ['webhooks', 'update', endpointId, '--header', 'X-Tenant'],
        code: 2,
        line: /^error: --header "X-Tenant" is not NAME=VALUE/,
      },
      {
        args: ['webhooks', 'update', endpointId, '--header', 'webhook-signature=v1,x'],
        code: 2,
        line: /^error: --header: webhook-signature is set by fulfillment-sync/,
      },
      {
        args: ['webhooks', 'update', endpointId, '--metadata', '{"team":'],
        code: 2,
        line: /^error: --metadata is not valid JSON/,
      },
      {
        args: ['webhooks', 'update', endpointId, '--rate-limit', 'fast'],
        code: 2,
        line: /^error: --rate-limit "fast" is not a rate: use N\/s/,
      },
      {
        args: ['webhooks', 'update', endpointId],
        code: 2,
        line: /^error: update needs at least one of --url/,
      },
      {
        args: ['webhooks', 'update', endpointId, '--url', 'https://127.0.0.1/hook'],
        code: 2,
        line: /^error: .*loopback/,
      },
      {
        args: ['webhooks', 'update', endpointId, '--types', 'shipment.nope'],
        code: 2,
        line: /^error: Unknown event type\(s\) or pattern\(s\): shipment\.nope\./,
      },
      {
        args: ['webhooks', 'test', endpointId, '--type', 'nope'],
        code: 2,
        line: /^error: Unknown event type "nope"/,
      },
      { args: ['events', 'example', 'nope'], code: 2, line: /^error: Unknown event type "nope"/ },
    ];
    const results = await runAll(cases.map((c) => c.args));
    cases.forEach((c, i) => {
      const result = results[i] as CliResult;
      const what = `${c.args.join(' ')}: ${result.stderr}`;
      expect(result.code, what).toBe(c.code);
      expect(linesOf(result.stderr), what).toEqual([expect.stringMatching(c.line)]);
      expect(result.stdout, what).toBe('');
    });
    // The same as real processes: exit status, one line on stderr, nothing on stdout.
    const [unknown, badJson] = await Promise.all(
      [
        ['webhooks', 'get', 'ep_nope'],
        ['webhooks', 'update', endpointId, '--metadata', '{"team":'],
      ].map((args) => runSourceCli(args, { env: env() })),
    );
    expect([unknown?.code, linesOf(unknown?.stderr ?? ''), unknown?.stdout]).toEqual([
      1,
      ['error: No endpoint ep_nope: see `webhooks list`.'],
      '',
    ]);
    expect([badJson?.code, linesOf(badJson?.stderr ?? ''), badJson?.stdout]).toEqual([
      2,
      [expect.stringMatching(/^error: --metadata is not valid JSON/)],
      '',
    ]);
  });

  it('updates, gets, lists and counts as JSON, secret masked; lists event types with their schemas', async () => {
    const [updated, got, listed, attempts, stats, types, example] = await runAll([
      [
        'webhooks',
        'update',
        endpointId,
        '--rate-limit',
        '20/s',
        '--header',
        'X-Tenant=acme',
        '--metadata',
        '{}',
      ],
      ['webhooks', 'get', endpointId, '--json'],
      ['webhooks', 'list', '--json'],
      ['webhooks', 'attempts', '--endpoint', endpointId, '--json'],
      ['webhooks', 'stats', '--json'],
      ['events', 'types', '--json'],
      ['events', 'example', 'shipment.delivered'],
    ]);
    for (const result of [updated, got, listed, attempts, stats, types, example]) {
      expect(result?.code, result?.stderr).toBe(0);
      expect(result?.stdout).not.toContain(secret.slice(6));
    }
    expect(updated?.stdout).toContain('rate limit: 20/s');
    expect(JSON.parse(got?.stdout ?? '')).toMatchObject({
      id: endpointId,
      rateLimitPerSecond: 20,
      headers: { 'x-tenant': 'acme' },
      secret: `whsec_****${secret.slice(-4)}`,
    });
    expect(JSON.parse(listed?.stdout ?? '')).toEqual([expect.objectContaining({ id: endpointId })]);
    expect(JSON.parse(attempts?.stdout ?? '')).toEqual([]);
    expect(JSON.parse(stats?.stdout ?? '')).toEqual([
      expect.objectContaining({ endpointId, attempts: 0, successRate: null }),
    ]);
    const entries = JSON.parse(types?.stdout ?? '') as Array<{
      type: string;
      schema: string;
      testOnly: boolean;
    }>;
    expect(entries.map((e) => e.type)).toEqual([...EVENT_TYPES, 'webhook.test']);
    for (const entry of entries)
      expect(existsSync(path.join(REPO_ROOT, entry.schema)), entry.schema).toBe(true);
    expect(JSON.parse(example?.stdout ?? '')).toMatchObject({ type: 'shipment.delivered', test: true });
  });
});
