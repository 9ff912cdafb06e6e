import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { runMigrations } from '../../src/db/migrate.ts';
import { freshDatabaseUrl } from '../helpers/db.ts';

const drops: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(drops.splice(0).map((drop) => drop()));
});

function fresh() {
  const target = freshDatabaseUrl();
  drops.push(target.drop);
  return target;
}

async function tableCount(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ n: number }>(
      "select count(*)::int as n from information_schema.tables where table_schema in ('fulfillment', 'sync')",
    );
    return result.rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

describe('runMigrations', () => {
  it('creates a missing database, applies everything, and is a no-op the second time', async () => {
    const { url } = fresh();
    const first = await runMigrations(url);
    expect(first.createdDatabase).toBe(true);
    expect(first.applied).toBeGreaterThan(0);
    expect(first.applied).toBe(first.total);
    const tables = await tableCount(url);
    expect(tables).toBeGreaterThanOrEqual(29);

    const second = await runMigrations(url);
    expect(second).toEqual({ createdDatabase: false, applied: 0, total: first.total });
    expect(await tableCount(url)).toBe(tables);
  });

  it('lets several processes migrate one new database at once', async () => {
    const { url } = fresh();
    const results = await Promise.all([runMigrations(url), runMigrations(url), runMigrations(url)]);
    const total = results[0]!.total;
    expect(results.every((r) => r.total === total)).toBe(true);
    // Exactly one of them applied the migrations; the others found them applied.
    expect(results.map((r) => r.applied).sort()).toEqual([0, 0, total]);
    expect(results.filter((r) => r.createdDatabase).length).toBeLessThanOrEqual(1);
  });

  it('says which database it could not reach, without the password', async () => {
    const { url } = fresh();
    const bad = new URL(url);
    bad.port = '1';
    bad.password = 'hunter2-secret';
    const error = await runMigrations(bad.toString()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/Cannot connect/);
    expect((error as Error).message).not.toContain('hunter2-secret');
  });
});
