import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase } from '../helpers/db.ts';
import { cleanupRedisPrefix, testRedisPrefix } from '../helpers/redis.ts';

describe('test helpers', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(inject('redisUrl'));
  });
  afterAll(() => redis.quit());

  it('give each caller its own Redis prefix and clean up only under it', async () => {
    const mine = testRedisPrefix('helpers test');
    const other = testRedisPrefix('helpers test');
    expect(mine).not.toBe(other);
    expect(mine).toMatch(/^fst:helpers-test:[0-9a-f]{8}$/);
    await redis.mset(`${mine}:a`, '1', `${mine}:b:c`, '2', `${other}:a`, '3');
    expect(await cleanupRedisPrefix(redis, mine)).toBe(2);
    expect(await redis.exists(`${mine}:a`, `${mine}:b:c`)).toBe(0);
    expect(await redis.get(`${other}:a`)).toBe('3');
    await cleanupRedisPrefix(redis, other);
  });

  it('clone a migrated database per caller and drop it on close', async () => {
    const a = await createTestDatabase();
    const b = await createTestDatabase();
    expect(a.name).not.toBe(b.name);
    await a.pool.query("insert into sync.cursors (stream, scope) values ('shipments', 'A1')");
    const inB = await b.pool.query('select count(*)::int as n from sync.cursors');
    expect(inB.rows[0].n).toBe(0);
    await Promise.all([a.close(), b.close()]);

    const admin = new pg.Client({ connectionString: inject('databaseUrl') });
    await admin.connect();
    const left = await admin.query('select datname from pg_database where datname = any($1)', [
      [a.name, b.name],
    ]);
    await admin.end();
    expect(left.rowCount).toBe(0);
  });
});
