/**
 * One deployment under test: a fresh Postgres database (migrated) and a unique Redis key prefix,
 * with the sync queue, what it costs in Postgres and Redis, and a cleanup that drops the database
 * and deletes only this prefix's keys (the Redis is shared: never flushed).
 */
import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { runMigrations } from '../../src/db/migrate.ts';
import { quoteIdent, withDatabase } from '../../src/db/urls.ts';
import { QUEUE_NAMES } from '../../src/worker/queues.ts';

export interface Deployment {
  databaseUrl: string;
  redisUrl: string;
  prefix: string;
  pool: pg.Pool;
  redis: Redis;
  /** The sync queue, to add cycle jobs and watch it drain. */
  queue: Queue;
  /** pg_database_size of the database. */
  databaseBytes(): Promise<number>;
  /** Rows in every table of schema fulfillment (the warehouse), exact. */
  warehouseRows(): Promise<number>;
  /** The largest tables (indexes and TOAST included), biggest first. */
  largestTables(limit: number): Promise<Record<string, number>>;
  /** Keys under this prefix and the bytes they hold (MEMORY USAGE of each). */
  prefixMemory(): Promise<{ keys: number; bytes: number }>;
  /** Deletes the prefix's keys and drops the database; answers a problem it could not get past. */
  close(): Promise<string | undefined>;
}

/** How long one DROP DATABASE may wait, and how often it is tried. */
const DROP_TIMEOUT_MS = 30_000;
const DROP_ATTEMPTS = 6;

/**
 * DROP DATABASE waits until every backend of the cluster has acknowledged it (a ProcSignalBarrier),
 * and on a shared server another user's session stuck mid-COPY can hold that up for minutes: each
 * try is bounded, and after the last one the benchmark reports the database it left instead of
 * hanging.
 */
async function dropDatabase(serverUrl: string, name: string): Promise<string | undefined> {
  let problem = '';
  for (let attempt = 1; attempt <= DROP_ATTEMPTS; attempt++) {
    const admin = new pg.Client({ connectionString: serverUrl, statement_timeout: DROP_TIMEOUT_MS });
    try {
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      return undefined;
    } catch (error) {
      problem = (error as Error).message;
    } finally {
      await admin.end().catch(() => undefined);
    }
  }
  return `could not drop database ${name} (${problem}); drop it by hand: DROP DATABASE ${quoteIdent(name)} WITH (FORCE)`;
}

/** Redis' used_memory (INFO memory), for the whole server. */
export async function redisUsedMemory(redis: Redis): Promise<number> {
  const info = await redis.info('memory');
  return Number(/^used_memory:(\d+)/m.exec(info)?.[1] ?? Number.NaN);
}

/** Creates and migrates `fs_scale_<label>_<random>` and opens the queue under a prefix of the same name. */
export async function createDeployment(
  label: string,
  serverUrl: string,
  redisUrl: string,
): Promise<Deployment> {
  const name = `fs_scale_${label}_${randomBytes(3).toString('hex')}`;
  const databaseUrl = withDatabase(serverUrl, name);
  await runMigrations(databaseUrl);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 3 });
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(QUEUE_NAMES.sync, { connection: redis, prefix: name });

  const scanPrefix = async (each: (keys: string[]) => Promise<void>) => {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${name}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length > 0) await each(keys);
    } while (cursor !== '0');
  };

  return {
    databaseUrl,
    redisUrl,
    prefix: name,
    pool,
    redis,
    queue,
    databaseBytes: async () =>
      Number((await pool.query('SELECT pg_database_size(current_database()) AS n')).rows[0].n),
    warehouseRows: async () => {
      const tables = await pool.query<{ t: string }>(
        `SELECT quote_ident(table_name) AS t FROM information_schema.tables
          WHERE table_schema = 'fulfillment' AND table_type = 'BASE TABLE'`,
      );
      if (tables.rows.length === 0) return 0;
      const counts = tables.rows.map((r) => `(SELECT count(*) FROM fulfillment.${r.t})`).join(' + ');
      return Number((await pool.query(`SELECT ${counts} AS n`)).rows[0].n);
    },
    largestTables: async (limit) => {
      const res = await pool.query<{ t: string; bytes: string }>(
        `SELECT n.nspname || '.' || c.relname AS t, pg_total_relation_size(c.oid) AS bytes
           FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
          WHERE c.relkind = 'r' AND n.nspname IN ('fulfillment', 'sync')
          ORDER BY pg_total_relation_size(c.oid) DESC LIMIT $1`,
        [limit],
      );
      return Object.fromEntries(res.rows.map((r) => [r.t, Number(r.bytes)]));
    },
    prefixMemory: async () => {
      let keys = 0;
      let bytes = 0;
      await scanPrefix(async (batch) => {
        const pipeline = redis.pipeline();
        for (const key of batch) pipeline.memory('USAGE', key);
        for (const [, usage] of (await pipeline.exec()) ?? []) bytes += Number(usage ?? 0);
        keys += batch.length;
      });
      return { keys, bytes };
    },
    close: async () => {
      await queue.close().catch(() => undefined);
      await scanPrefix(async (keys) => {
        await redis.unlink(...keys);
      }).catch(() => undefined);
      redis.disconnect();
      await pool.end();
      return dropDatabase(serverUrl, name);
    },
  };
}
