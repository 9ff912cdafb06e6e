import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { PACKAGE_ROOT } from '../runtime/packageRoot.ts';
import { describeConnectionProblem } from './connectionProblem.ts';
import { MIGRATION_LOCK_KEY } from './migrationLock.ts';
import { ensurePiiKey } from './pii/key.ts';
import {
  grantReadAccess,
  PersonalDataFound,
  type ReaderAccess,
  type ReaderGrant,
  ReaderRoleError,
} from './readerRole.ts';
import { databaseNameOf, effectiveUrl, quoteIdent, withDatabase } from './urls.ts';

/** The committed drizzle-kit migrations. */
export const MIGRATIONS_FOLDER = path.join(PACKAGE_ROOT, 'migrations');

// Where drizzle keeps the applied-migrations ledger (its defaults, spelled out for the count).
const LEDGER = '"drizzle"."__drizzle_migrations"';

/** Minimal logger: pino's satisfies it. */
export interface MigrateLogger {
  info: (obj: object, msg?: string) => void;
}

export interface MigrateOptions {
  logger?: MigrateLogger;
  migrationsFolder?: string;
  /** FULFILLMENT_READER_ROLE: a role given read access to schema fulfillment after the migrations. */
  readerRole?: string;
  /** FULFILLMENT_FULL_READER_ROLE: a role given read access to all of it, personal data in clear. */
  fullReaderRole?: string;
}

export interface MigrateResult {
  /** Whether this call created the database. */
  createdDatabase: boolean;
  /** Migrations applied by this call (0 when already up to date). */
  applied: number;
  /** Migrations recorded in the database after this call. */
  total: number;
  /** What was granted to `readerRole`, when one was given. */
  reader?: ReaderGrant;
  /** What was granted to `fullReaderRole`, when one was given. */
  fullReader?: ReaderGrant;
}

/** A migration that could not run; the message says what to check, `cause` has the driver error. */
export class MigrationError extends Error {
  override name = 'MigrationError';
}

/**
 * Creates the database if it is missing, then applies the pending migrations under a Postgres
 * advisory lock, so several processes may run it at once. Idempotent.
 */
export async function runMigrations(
  configuredUrl: string,
  options: MigrateOptions = {},
): Promise<MigrateResult> {
  const url = effectiveUrl(configuredUrl);
  const database = databaseNameOf(url);
  const createdDatabase = await ensureDatabase(url);
  if (createdDatabase) options.logger?.info({ database }, 'created database');

  const client = new pg.Client({ connectionString: url, application_name: 'fulfillment-sync migrate' });
  try {
    await client.connect();
  } catch (error) {
    throw new MigrationError(`Cannot connect to database "${database}": ${connectionText(error, url)}`, {
      cause: error,
    });
  }
  try {
    await client.query('select pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK_KEY]);
    const before = await countApplied(client);
    try {
      await migrate(drizzle({ client }), { migrationsFolder: options.migrationsFolder ?? MIGRATIONS_FOLDER });
    } catch (error) {
      throw new MigrationError(
        `Applying migrations to "${database}" failed (nothing of the failed batch was kept): ${errorText(error)}`,
        { cause: error },
      );
    }
    const total = await countApplied(client);
    const result: MigrateResult = { createdDatabase, applied: total - before, total };
    options.logger?.info({ database, applied: result.applied, total }, 'migrations up to date');
    await ensurePiiKey(client);
    // The full reader first: a masked reader that is a member of it is then refused, not left unmasked.
    if (options.fullReaderRole) {
      result.fullReader = await grantReader(client, database, options.fullReaderRole, 'full');
    }
    if (options.readerRole) result.reader = await grantReader(client, database, options.readerRole, 'masked');
    return result;
  } finally {
    // Ending the session releases the advisory lock even if the unlock is never sent.
    await client.query('select pg_advisory_unlock(hashtext($1))', [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end().catch(() => {});
  }
}

/** Applies FULFILLMENT_READER_ROLE or FULFILLMENT_FULL_READER_ROLE after the migrations, still under their lock. */
async function grantReader(
  client: pg.Client,
  database: string,
  role: string,
  access: ReaderAccess,
): Promise<ReaderGrant> {
  try {
    return await grantReadAccess(client, role, access);
  } catch (error) {
    if (!(error instanceof ReaderRoleError)) throw error;
    const variable = access === 'full' ? 'FULFILLMENT_FULL_READER_ROLE' : 'FULFILLMENT_READER_ROLE';
    const applied = error instanceof PersonalDataFound ? 'was applied only in part' : 'was not applied';
    throw new MigrationError(
      `Migrations of "${database}" are up to date, but ${variable} ${applied}: ${error.message}`,
      { cause: error },
    );
  }
}

/**
 * Creates the database named by `url` when it does not exist, through the `postgres` maintenance
 * database. Another process creating it at the same moment is fine. Returns whether it created it.
 */
export async function ensureDatabase(configuredUrl: string): Promise<boolean> {
  const url = effectiveUrl(configuredUrl);
  const database = databaseNameOf(url);
  if (await canConnect(url)) return false;
  const admin = new pg.Client({ connectionString: withDatabase(url, 'postgres') });
  try {
    await admin.connect();
  } catch (error) {
    throw new MigrationError(
      `Database "${database}" does not exist and the "postgres" maintenance database is unreachable to create it (${connectionText(error, withDatabase(url, 'postgres'))}): create it by hand or grant access.`,
      { cause: error },
    );
  }
  try {
    await admin.query(`create database ${quoteIdent(database)}`);
    return true;
  } catch (error) {
    // 42P04 duplicate_database; 23505 when two CREATE DATABASE race on pg_database's unique index.
    if (isPgError(error) && (error.code === '42P04' || error.code === '23505')) return false;
    throw new MigrationError(`Cannot create database "${database}": ${errorText(error)}`, { cause: error });
  } finally {
    await admin.end().catch(() => {});
  }
}

async function canConnect(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  try {
    await client.connect();
    return true;
  } catch (error) {
    // 3D000 invalid_catalog_name: the database is missing. Anything else is a real problem.
    if (isPgError(error) && error.code === '3D000') return false;
    throw new MigrationError(
      `Cannot connect to database "${databaseNameOf(url)}": ${connectionText(error, url)}`,
      { cause: error },
    );
  } finally {
    await client.end().catch(() => {});
  }
}

async function countApplied(client: pg.Client): Promise<number> {
  const exists = await client.query<{ t: string | null }>(`select to_regclass('${LEDGER}')::text as t`);
  if (!exists.rows[0]?.t) return 0;
  const result = await client.query<{ n: number }>(`select count(*)::int as n from ${LEDGER}`);
  return result.rows[0]?.n ?? 0;
}

function isPgError(error: unknown): error is { code: string } {
  return (
    typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
  );
}

/** The cause of a failed connection, named (never the password); the driver's message otherwise. */
function connectionText(error: unknown, url: string): string {
  return describeConnectionProblem(error, url) ?? scrubUrlPasswords(errorText(error));
}

function scrubUrlPasswords(text: string): string {
  return text.replace(/(\/\/[^/\s:@]+:)[^@\s/]+@/g, '$1***@');
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
