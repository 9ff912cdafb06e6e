import { describe, expect, it } from 'vitest';
import type { ConfigError } from '../../src/config/configError.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { linesOf, runSourceCli } from '../helpers/cli.ts';

/** The DATABASE_* limits every pool gets: defaults, the derived query timeout, one clear line when wrong. */

function problemsOf(env: NodeJS.ProcessEnv): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    return (error as ConfigError).problems;
  }
  throw new Error('expected a ConfigError');
}

describe('DATABASE_* limits', () => {
  it('default to 60 s per statement, 90 s per answer, 1 h for long work, keepalive after 10 s', () => {
    expect(loadConfig({}).database).toEqual({
      statementTimeoutMs: 60_000,
      queryTimeoutMs: 90_000,
      longStatementTimeoutMs: 3_600_000,
      keepAliveMs: 10_000,
    });
  });

  it('give the answer 30 s more than the statement unless set; 0 is none', () => {
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '120000' }).database.queryTimeoutMs).toBe(150_000);
    expect(loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '0' }).database.queryTimeoutMs).toBe(0);
    expect(
      loadConfig({ DATABASE_STATEMENT_TIMEOUT_MS: '0', DATABASE_QUERY_TIMEOUT_MS: '5000' }).database,
    ).toMatchObject({ statementTimeoutMs: 0, queryTimeoutMs: 5000 });
  });

  it('refuse an answer timeout that would give up before Postgres cancels', () => {
    expect(
      problemsOf({ DATABASE_STATEMENT_TIMEOUT_MS: '60000', DATABASE_QUERY_TIMEOUT_MS: '30000' }),
    ).toEqual([
      'DATABASE_QUERY_TIMEOUT_MS: must exceed DATABASE_STATEMENT_TIMEOUT_MS (60000) so that Postgres cancels a slow statement before the client gives up on it, or be 0 (none); got 30000',
    ]);
    expect(problemsOf({ DATABASE_KEEPALIVE_MS: '10' })).toEqual([
      expect.stringMatching(/^DATABASE_KEEPALIVE_MS: /),
    ]);
  });

  it('are shown by `config`', async () => {
    const result = await runSourceCli(['config', '--json'], {
      env: {
        PATH: process.env.PATH ?? '',
        HOME: process.env.HOME ?? '',
        DATABASE_STATEMENT_TIMEOUT_MS: '45000',
      },
    });
    expect(result.code).toBe(0);
    const [line] = linesOf(result.stdout);
    expect(JSON.parse(line as string).database).toEqual({
      statementTimeoutMs: 45_000,
      queryTimeoutMs: 75_000,
      longStatementTimeoutMs: 3_600_000,
      keepAliveMs: 10_000,
    });
  });
});
