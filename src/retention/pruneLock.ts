import type { Pool, PoolClient } from 'pg';

/**
 * The session advisory lock that lets one pruner run at a time across every worker and CLI on the
 * database (`pg_try_advisory_lock(hashtext(key))`); any constant works as long as it never changes.
 */
export const PRUNE_LOCK_KEY = 'fulfillment-sync:prune';

/**
 * Runs `work` on one client of `pool` while holding the prune lock; answers `{ ran: false }` at once
 * when another pruner holds it (never waits for it). The lock goes with the session, so a pruner
 * that dies releases it with its connection.
 */
export async function withPruneLock<T>(
  pool: Pool,
  work: (client: PoolClient) => Promise<T>,
): Promise<{ ran: true; result: T } | { ran: false }> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    const { rows } = await client.query<{ locked: boolean }>(
      'SELECT pg_try_advisory_lock(hashtext($1)) AS locked',
      [PRUNE_LOCK_KEY],
    );
    if (!rows[0]?.locked) return { ran: false };
    try {
      return { ran: true, result: await work(client) };
    } finally {
      await client
        .query('SELECT pg_advisory_unlock(hashtext($1))', [PRUNE_LOCK_KEY])
        .catch((error: Error) => {
          // An unlock that fails leaves the session suspect: drop the connection, which frees the lock.
          broken = error;
        });
    }
  } catch (error) {
    broken ??= error as Error;
    throw error;
  } finally {
    client.release(broken);
  }
}
