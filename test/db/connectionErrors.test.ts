import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createCliContext } from '../../src/cli/context.ts';
import { runCli } from '../../src/cli/run.ts';
import { withDatabase } from '../../src/db/urls.ts';
import { startRefusingPostgres } from '../helpers/fakePostgres.ts';

/**
 * A database that cannot be reached names why, in one line, without the password: `migrate` (the
 * first command a user runs) and any other command (here `status`).
 */

const PASSWORD = 'pw-never-printed';
let refusing: Awaited<ReturnType<typeof startRefusingPostgres>>;
beforeAll(async () => {
  refusing = await startRefusingPostgres('28P01', 'password authentication failed for user "app"');
});
afterAll(() => refusing?.close());

async function run(command: string, databaseUrl: string) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    ['node', 'fulfillment-sync', command],
    createCliContext({
      env: { DATABASE_URL: databaseUrl, REDIS_URL: 'redis://127.0.0.1:1', LOG_LEVEL: 'silent' },
      print: (l) => out.push(l),
      printError: (l) => err.push(l),
    }),
  );
  process.exitCode = undefined;
  expect(err.join('\n')).not.toContain(PASSWORD);
  return { code, err };
}

function server(): URL {
  return new URL(inject('databaseUrl'));
}

describe('database connection errors', () => {
  it('a wrong password: authentication failed, naming the user and the password as the cause', async () => {
    const url = `postgres://app:${PASSWORD}@127.0.0.1:${refusing.port}/fulfillment`;
    for (const command of ['migrate', 'status']) {
      const { code, err } = await run(command, url);
      expect(code).toBe(1);
      expect(err).toEqual([
        expect.stringContaining(
          `authentication failed for user "app" at 127.0.0.1:${refusing.port}: wrong password`,
        ),
      ]);
    }
  });

  it('a wrong port: connection refused at that host and port', async () => {
    const url = server();
    url.port = '1';
    url.password = PASSWORD;
    for (const command of ['migrate', 'status']) {
      const { code, err } = await run(command, url.toString());
      expect(code).toBe(1);
      expect(err).toEqual([
        expect.stringContaining(`connection refused at ${url.hostname}:1: is Postgres running`),
      ]);
    }
  });

  it('a user the server does not know: authentication failed, with the server reason', async () => {
    const url = server();
    url.username = 'no_such_role_fs';
    const { err } = await run('status', url.toString());
    expect(err).toEqual([
      expect.stringMatching(
        /authentication failed for user "no_such_role_fs" .*role "no_such_role_fs" does not exist/,
      ),
    ]);
  });

  it('a database that does not exist: says so and that migrate creates it', async () => {
    const { code, err } = await run('status', withDatabase(server().toString(), 'fs_no_such_database'));
    expect(code).toBe(1);
    expect(err).toEqual([expect.stringContaining('database "fs_no_such_database" does not exist at')]);
    expect(err[0]).toContain('run `npx fulfillment-sync migrate` (it creates it)');
  });

  it('TLS asked for where the server has none: says TLS is the problem', async () => {
    const url = `postgres://app@127.0.0.1:${refusing.port}/fulfillment?sslmode=verify-full`;
    const { code, err } = await run('status', url);
    expect(code).toBe(1);
    expect(err).toEqual([
      expect.stringContaining(
        `TLS was asked for (sslmode in DATABASE_URL) but the server at 127.0.0.1:${refusing.port} does not support it`,
      ),
    ]);
  });

  it('a server that requires TLS: says to add sslmode', async () => {
    const hba = await startRefusingPostgres(
      '28000',
      'no pg_hba.conf entry for host "10.0.0.7", user "app", database "fulfillment", no encryption',
    );
    try {
      const { code, err } = await run('status', `postgres://app@127.0.0.1:${hba.port}/fulfillment`);
      expect(code).toBe(1);
      expect(err).toEqual([
        expect.stringMatching(/refuses connections without TLS .*add \?sslmode=verify-full/),
      ]);
    } finally {
      await hba.close();
    }
  });

  it('an unknown host: host not found', async () => {
    const { err } = await run('status', 'postgres://app@no-such-host.invalid:5432/fulfillment');
    expect(err).toEqual([expect.stringContaining('host "no-such-host.invalid" not found')]);
  });
});
