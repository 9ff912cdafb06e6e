import type pg from 'pg';

/**
 * Tuples ever inserted, updated or deleted in the given fulfillment tables, per pg_stat_user_tables.
 * PG15+ backends flush their counters lazily when idle; pg_stat_force_next_flush() makes each pool
 * connection flush as soon as that call returns, and pg_stat_clear_snapshot() makes the reader see it.
 */
export async function tuplesWritten(pool: pg.Pool, tables: readonly string[]): Promise<number> {
  const clients = await Promise.all(Array.from({ length: pool.totalCount || 1 }, () => pool.connect()));
  try {
    for (const c of clients) await c.query('SELECT pg_stat_force_next_flush()').catch(() => undefined);
  } finally {
    for (const c of clients) c.release();
  }
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_stat_clear_snapshot()');
    const res = await client.query(
      `SELECT coalesce(sum(n_tup_ins + n_tup_upd + n_tup_del), 0)::bigint AS n
       FROM pg_stat_user_tables WHERE schemaname = 'fulfillment' AND relname = ANY($1)`,
      [tables],
    );
    return Number(res.rows[0].n);
  } finally {
    client.release();
  }
}
