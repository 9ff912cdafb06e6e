import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema/index.ts';
import { effectiveUrl } from './urls.ts';

export type Schema = typeof schema;
/** The Drizzle database every module receives (never constructs). */
export type Db = NodePgDatabase<Schema>;
/** A transaction handle, as passed to `db.transaction(async (tx) => ...)`. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** Either: functions that may run inside or outside a caller's transaction take this. */
export type DbOrTx = Db | Tx;

/** What `createDatabase` hands out. */
export interface Database {
  db: Db;
  pool: pg.Pool;
  /** Ends the pool; waits for checked-out clients to be released. */
  close: () => Promise<void>;
}

export interface DatabaseOptions {
  /** Pool size (default 10). */
  max?: number;
  /** Shown in pg_stat_activity, so operators can tell processes apart. */
  applicationName?: string;
  /** How long a query waits for a free or new connection before it fails (default: forever). */
  connectionTimeoutMs?: number;
  /** Told about errors of idle pooled connections (e.g. the server restarting), which are otherwise fatal. */
  onIdleError?: (error: Error) => void;
}

/**
 * Opens a pool and a Drizzle database with the full schema.
 *
 * Value parsing lives in the schema's column modes (timestamptz -> Date, numeric/bigint -> number),
 * so typed Drizzle queries return JS values. Raw SQL (`pool.query`, `db.execute`) keeps pg's
 * defaults: int8 and numeric arrive as strings; wrap counts as `sql<number>\`...\`.mapWith(Number)`.
 */
export function createDatabase(url: string, options: DatabaseOptions = {}): Database {
  const pool = new pg.Pool({
    connectionString: effectiveUrl(url),
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'fulfillment-sync',
    ...(options.connectionTimeoutMs === undefined
      ? {}
      : { connectionTimeoutMillis: options.connectionTimeoutMs }),
  });
  // An idle client's error is emitted on the pool; unhandled it would crash the process.
  pool.on('error', (error) => options.onIdleError?.(error));
  const db = drizzle({ client: pool, schema });
  let closing: Promise<void> | undefined;
  return {
    db,
    pool,
    close: () => {
      closing ??= pool.end();
      return closing;
    },
  };
}
