import type { Pool } from 'pg';
import type { RedisConnection } from '../redis/connection.ts';

/**
 * Readiness of Redis: the connection must be up and answer PING (never waits on the offline
 * queue), and so must every other connection of the process (`othersReady`).
 */
export async function redisReady(
  redis: RedisConnection,
  othersReady: () => boolean = () => true,
): Promise<boolean> {
  if (redis.status !== 'ready') throw new Error(`Redis connection is ${redis.status}`);
  if (!othersReady()) throw new Error('a Redis connection is reconnecting');
  return (await redis.ping()) === 'PONG';
}

/** Readiness of Postgres: a trivial query through the pool. */
export async function postgresReady(pool: Pool): Promise<boolean> {
  await pool.query('select 1');
  return true;
}

/** Readiness of the schedules: every wanted job scheduler is in Redis now (read, not remembered). */
export async function schedulesReady(missing: () => Promise<string[]>): Promise<boolean> {
  const ids = await missing();
  if (ids.length > 0) {
    throw new Error(`${ids.length} job scheduler(s) missing from Redis (e.g. ${ids[0]}); re-created shortly`);
  }
  return true;
}
