import type { Redis } from 'ioredis';
import type { Pool } from 'pg';

/** Readiness of Redis: the connection must be up and answer PING (never waits on the offline queue). */
export async function redisReady(redis: Redis): Promise<boolean> {
  if (redis.status !== 'ready') throw new Error(`Redis connection is ${redis.status}`);
  return (await redis.ping()) === 'PONG';
}

/** Readiness of Postgres: a trivial query through the pool. */
export async function postgresReady(pool: Pool): Promise<boolean> {
  await pool.query('select 1');
  return true;
}
