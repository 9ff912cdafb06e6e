import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { DatabaseSettings } from '../config/types.ts';
import { GuardedClient, type GuardedConfig } from './guardedClient.ts';
import { DEFAULT_DATABASE_SETTINGS, longLimits, standardLimits } from './limits.ts';
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
  /**
   * The DATABASE_* settings (config.database; default: their defaults): every session's statement
   * timeout, client-side answer timeout and keepalive (src/db/limits.ts).
   */
  settings?: DatabaseSettings;
  /** 'long': the pool's work is long by nature (analytics refresh, pruning): the long limits. */
  work?: 'standard' | 'long';
}

/**
 * Opens a pool and a Drizzle database with the full schema.
 *
 * Value parsing lives in the schema's column modes (timestamptz -> Date, numeric/bigint -> number),
 * so typed Drizzle queries return JS values. Raw SQL (`pool.query`, `db.execute`) keeps pg's
 * defaults: int8 and numeric arrive as strings; wrap counts as `sql<number>\`...\`.mapWith(Number)`.
 */
export function createDatabase(url: string, options: DatabaseOptions = {}): Database {
  const settings = options.settings ?? DEFAULT_DATABASE_SETTINGS;
  const long = longLimits(settings);
  const limits = options.work === 'long' ? long : standardLimits(settings);
  const config: pg.PoolConfig & GuardedConfig = {
    connectionString: effectiveUrl(url),
    max: options.max ?? 10,
    application_name: options.applicationName ?? 'fulfillment-sync',
    ...(options.connectionTimeoutMs === undefined
      ? {}
      : { connectionTimeoutMillis: options.connectionTimeoutMs }),
    Client: GuardedClient,
    // Sent at login; 0 sends nothing (the server's own setting, none by default).
    statement_timeout: limits.statementTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: limits.keepAliveMs,
    // Read by GuardedClient (pg.Pool hands its options to each client).
    limits,
    longLimits: long,
  };
  const pool = new pg.Pool(config);
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
