import pg from 'pg';
import { type RefreshOutcome, refreshRelation } from '../../src/analytics/refresh.ts';

/** What readers saw while one table's refresh ran. */
export interface ReadersDuringRefresh {
  relation: string;
  refresh: RefreshOutcome;
  /** Reader queries that ran while the refresh did (one at least). */
  queries: number;
  /** The slowest of them, ms. */
  slowestMs: number;
  /** Locks a reader waited for (pg_locks, not granted), as `mode on relation`: none is the claim. */
  waitedFor: string[];
}

/**
 * Refreshes `relation` (rebuilding it when `rebuild`) while a reader runs `readerSql` back to back,
 * and an observer watches pg_locks for a lock the reader waits for: the reader must never wait.
 */
export async function readDuringRefresh(
  url: string,
  pool: pg.Pool,
  relation: string,
  readerSql: string,
  rebuild: boolean,
): Promise<ReadersDuringRefresh> {
  const reader = new pg.Client({ connectionString: url, application_name: 'bench reader' });
  const observer = new pg.Client({ connectionString: url, application_name: 'bench observer' });
  await Promise.all([reader.connect(), observer.connect()]);
  try {
    const pid = (await reader.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
    let done = false;
    const waitedFor = new Set<string>();
    const watching = (async () => {
      while (!done) {
        const { rows } = await observer.query<{ what: string }>(
          `SELECT l.mode || ' on ' || coalesce(l.relation::regclass::text, l.locktype) AS what
             FROM pg_locks l WHERE l.pid = $1 AND NOT l.granted`,
          [pid],
        );
        for (const r of rows) waitedFor.add(r.what);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const refreshing = refreshRelation(pool, relation, { rebuild }).finally(() => {
      done = true;
    });
    let queries = 0;
    let slowestMs = 0;
    do {
      const started = performance.now();
      await reader.query(readerSql);
      slowestMs = Math.max(slowestMs, performance.now() - started);
      queries += 1;
    } while (!done);
    const refresh = await refreshing;
    await watching;
    return {
      relation,
      refresh,
      queries,
      slowestMs: Math.round(slowestMs * 10) / 10,
      waitedFor: [...waitedFor],
    };
  } finally {
    await Promise.all([reader.end(), observer.end()]);
  }
}
