import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { MAINTAINED } from '../../src/analytics/views.ts';
import { runSourceCli } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * `fulfillment-sync analytics refresh|rebuild`: what the worker does on its cadence, now, with a
 * line per table; one line and exit 2 for a table it does not keep, one line per failed table and
 * exit 1.
 */

let t: TestDatabase;
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  t = await createTestDatabase();
  env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    DATABASE_URL: t.url,
    REDIS_URL: inject('redisUrl'),
    LOG_LEVEL: 'silent',
  };
  await t.pool.query(`
    INSERT INTO fulfillment.shipments (container_id, account_number, order_number, status_code, ship_date, carrier_name)
    VALUES ('C1', 'ACC1', 'SO-1', 'SHIPPED', now() - interval '1 day', 'CarrierA')`);
});
afterAll(() => t.close());

const facts = async () =>
  (await t.pool.query<{ n: number }>('SELECT count(*)::int AS n FROM analytics.shipment_facts')).rows[0]!.n;

// Each test spawns a CLI process (tsx): on a loaded 2-core machine that can take a minute.
describe('fulfillment-sync analytics', { timeout: 180_000 }, () => {
  it('refuses a table it does not keep in one line with exit 2, naming those it keeps', async () => {
    const result = await runSourceCli(['analytics', 'rebuild', '--view', 'return_rate_by_sku'], { env });
    expect(result.code).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /--view return_rate_by_sku: not a table the worker keeps \(one of shipment_facts, /,
    );
  });

  it('refresh: takes in what is queued, a line per table', async () => {
    const result = await runSourceCli(['analytics', 'refresh'], { env });
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(
      result.stdout
        .trim()
        .split('\n')
        .map((l) => l.split(' ')[0]),
    ).toEqual([...MAINTAINED]);
    expect(await facts()).toBe(1);
  });

  it('rebuild --view: rebuilds that table and what reads it', async () => {
    await t.pool.query('DELETE FROM analytics.shipment_facts');
    const result = await runSourceCli(['analytics', 'rebuild', '--view', 'shipment_facts'], { env });
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines.filter((l) => l.includes('rebuilt whole')).map((l) => l.split(' ')[0])).toEqual([
      'analytics.shipment_facts',
      'analytics.order_lifecycle',
      'analytics.carrier_performance_weekly',
      'analytics.shipped_units_daily',
    ]);
    expect(await facts()).toBe(1);
  });

  it('says which table failed, one line each, exit 1, and leaves the changes queued', async () => {
    await t.pool.query(`UPDATE fulfillment.shipments SET status_code = 'DELIVERED'`);
    const holder = new pg.Client({ connectionString: t.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE fulfillment.shipment_events IN ACCESS EXCLUSIVE MODE');
      const result = await runSourceCli(['analytics', 'refresh'], {
        env: { ...env, PGOPTIONS: '-c lock_timeout=200' },
      });
      expect(result.code).toBe(1);
      expect(result.stderr.trim().split('\n')).toEqual([
        'error: analytics.shipment_facts: canceling statement due to lock timeout',
      ]);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const queued = await t.pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM sync.analytics_changes WHERE relation = 'analytics.shipment_facts'`,
    );
    expect(queued.rows[0]!.n).toBe(1);
  });

  it('says it cannot reach the database in one line, exit 1', async () => {
    const url = new URL(t.url);
    url.port = '1';
    const result = await runSourceCli(['analytics', 'refresh'], {
      env: { ...env, DATABASE_URL: url.toString() },
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/^error: /);
  });
});
