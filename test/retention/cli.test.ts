import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PRUNE_LOCK_KEY } from '../../src/retention/pruneLock.ts';
import { runSourceCli } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { bookkeepingKeys, seedBookkeeping } from './seed.ts';

let t: TestDatabase;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  t = await createTestDatabase();
  // The CLI prunes by the wall clock: seed around now.
  await seedBookkeeping(t.pool, new Date());
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATABASE_URL: t.url,
    REDIS_URL: inject('redisUrl'),
    LOG_LEVEL: 'silent',
  };
});
afterAll(() => t.close());

// Each test spawns one or two CLI processes (tsx): on a loaded 2-core machine that can take a minute.
describe('fulfillment-sync prune', { timeout: 180_000 }, () => {
  it('refuses bad input in one line with exit 2', async () => {
    const bogus = await runSourceCli(['prune', '--bogus'], { env });
    expect(bogus.code).toBe(2);
    expect(bogus.stderr.trim().split('\n')).toHaveLength(1);
    const badSetting = await runSourceCli(['prune'], { env: { ...env, RETENTION_RUNS_DAYS: 'a month' } });
    expect(badSetting.code).toBe(2);
    expect(badSetting.stderr).toContain('RETENTION_RUNS_DAYS');
    expect(badSetting.stderr).not.toContain('    at ');
  });

  it('says it cannot prune (exit 1, one line, nothing removed) while another pruner runs', async () => {
    const other = new pg.Client({ connectionString: t.url });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock(hashtext($1))', [PRUNE_LOCK_KEY]);
      const before = await bookkeepingKeys(t.pool);
      const result = await runSourceCli(['prune'], { env });
      expect(result.code).toBe(1);
      expect(result.stderr.trim()).toMatch(/^error: another pruner is running/);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(await bookkeepingKeys(t.pool)).toEqual(before);
    } finally {
      await other.end();
    }
  });

  it('--dry-run says what would go and changes nothing; then prune removes it and says so', async () => {
    const before = await bookkeepingKeys(t.pool);
    const dry = await runSourceCli(['prune', '--dry-run'], { env });
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('sync.runs: would remove 4 rows, before ');
    expect(dry.stdout).toContain('(RETENTION_RUNS_DAYS)');
    expect(dry.stdout).toContain('sync.events: would remove 2 rows');
    expect(dry.stdout).toContain('dry run: nothing changed; would remove 12 rows');
    expect(await bookkeepingKeys(t.pool)).toEqual(before);

    const done = await runSourceCli(['prune', '--json'], { env });
    expect(done.code).toBe(0);
    const report = JSON.parse(done.stdout) as {
      dryRun: boolean;
      tables: Array<{ table: string; removed: number }>;
    };
    expect(report.dryRun).toBe(false);
    expect(Object.fromEntries(report.tables.map((x) => [x.table, x.removed]))).toMatchObject({
      'sync.runs': 4,
      'sync.events': 2,
      'sync.webhook_deliveries': 2,
    });
    expect((await bookkeepingKeys(t.pool)).runs).toEqual(['2', '4', '6', '8']);
  });

  it('status shows the oldest row each bookkeeping table keeps', async () => {
    const text = await runSourceCli(['status'], { env });
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('retention (oldest row kept');
    expect(text.stdout).toMatch(/sync\.runs\s+\d{4}-\d\d-\d\dT\S+\s+keeps 30 days \(by started_at\)/);
    const json = await runSourceCli(['status', '--json'], { env });
    const parsed = JSON.parse(json.stdout) as { retention: Array<{ table: string; retentionDays: number }> };
    expect(parsed.retention.find((r) => r.table === 'sync.events')?.retentionDays).toBe(90);
  });
});
