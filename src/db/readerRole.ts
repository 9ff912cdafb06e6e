import pg from 'pg';
import { MIGRATION_LOCK_KEY } from './migrationLock.ts';
import { roleNameProblem } from './roleName.ts';
import { databaseNameOf, effectiveUrl, quoteIdent } from './urls.ts';

/** The schema a reader may read: the synced records and the views over them. */
export const READER_SCHEMA = 'fulfillment';
/** The model for questions (src/db/schema/analytics/), read like READER_SCHEMA. */
export const ANALYTICS_SCHEMA = 'analytics';
/** Every schema a reader may read. */
export const READER_SCHEMAS = [READER_SCHEMA, ANALYTICS_SCHEMA] as const;

/** What `grantReadAccess` did. */
export interface ReaderGrant {
  role: string;
  /** Whether the role was created (NOLOGIN) by this call. */
  created: boolean;
  /** Tables and views of the schema the role can now read. */
  tables: number;
  views: number;
  /** Views and materialized views of schema analytics the role can now read. */
  analyticsViews: number;
}

/** Read access that cannot be granted as asked; the message is one line, naming what to fix. */
export class ReaderRoleError extends Error {
  override name = 'ReaderRoleError';
}

// 42710 duplicate_object; 23505 when two sessions create the same role at once (pg_authid's index).
const ROLE_EXISTS = new Set(['42710', '23505']);

/**
 * Makes `role` a reader of schemas `fulfillment` and `analytics` and nothing more, in one transaction on `client`:
 * creates it NOLOGIN if missing, grants CONNECT on this database, USAGE on each schema and SELECT on
 * every table and view in them, and the same SELECT on tables and views the current role creates
 * there later (default privileges). Other privileges on those schemas and their tables are revoked, so
 * the role cannot write there. Refuses a role that could read everything anyway (a superuser, a
 * member of the migrating role) or that already reads `sync.webhook_endpoints` (webhook secrets).
 * Idempotent. Run it where migrations run (under their advisory lock): concurrent GRANTs on the
 * same objects can fail with "tuple concurrently updated".
 */
export async function grantReadAccess(client: pg.ClientBase, role: string): Promise<ReaderGrant> {
  const problem = roleNameProblem(role);
  if (problem) throw new ReaderRoleError(`role name ${problem}`);
  const ident = quoteIdent(role);
  await client.query('BEGIN');
  try {
    await assertSchemaExists(client);
    const created = await ensureRole(client, role, ident);
    if (!created) await assertOnlyReader(client, role);
    const database = await client.query<{ name: string }>('SELECT current_database() AS name');
    const statements = [
      `GRANT CONNECT ON DATABASE ${quoteIdent(database.rows[0]!.name)} TO ${ident}`,
      ...READER_SCHEMAS.flatMap((schema) => [
        `REVOKE ALL ON SCHEMA ${schema} FROM ${ident}`,
        `GRANT USAGE ON SCHEMA ${schema} TO ${ident}`,
        `REVOKE ALL ON ALL TABLES IN SCHEMA ${schema} FROM ${ident}`,
        `GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${ident}`,
        `ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} REVOKE ALL ON TABLES FROM ${ident}`,
        `ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT SELECT ON TABLES TO ${ident}`,
      ]),
    ];
    for (const statement of statements) await client.query(statement);
    const counts = await relationCounts(client);
    await client.query('COMMIT');
    return { role, created, ...counts };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    if (error instanceof ReaderRoleError) throw error;
    throw new ReaderRoleError(`granting read access to role "${role}" failed: ${firstLine(error)}`, {
      cause: error,
    });
  }
}

/**
 * `grantReadAccess` on the database at `url`, under the migrations' advisory lock (a grant racing a
 * migrate or another grant could fail). Never names the URL in an error: it may hold a password.
 */
export async function applyReaderRole(configuredUrl: string, role: string): Promise<ReaderGrant> {
  const url = effectiveUrl(configuredUrl);
  const client = new pg.Client({ connectionString: url, application_name: 'fulfillment-sync grant-reader' });
  try {
    await client.connect();
  } catch (error) {
    throw new ReaderRoleError(
      `Cannot connect to database "${databaseNameOf(url)}": check DATABASE_URL (${firstLine(error)}).`,
      { cause: error },
    );
  }
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [MIGRATION_LOCK_KEY]);
    return await grantReadAccess(client, role);
  } finally {
    // Ending the session releases the advisory lock even if the unlock is never sent.
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end().catch(() => {});
  }
}

/** A one-line summary of a grant, for `migrate` and `grant-reader`. */
export function describeGrant(grant: ReaderGrant): string {
  const role = grant.created ? `created role "${grant.role}" (NOLOGIN)` : `role "${grant.role}"`;
  return `${role} can read schema ${READER_SCHEMA} (${grant.tables} tables, ${grant.views} views, and those added later) and ${ANALYTICS_SCHEMA} (${grant.analyticsViews} views), and nothing else`;
}

async function assertSchemaExists(client: pg.ClientBase): Promise<void> {
  for (const schema of READER_SCHEMAS) {
    const found = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (found.rows.length === 0) {
      throw new ReaderRoleError(
        `schema ${schema} does not exist in this database: run \`fulfillment-sync migrate\` first`,
      );
    }
  }
}

/** Creates the role NOLOGIN unless it exists; answers whether this call created it. */
async function ensureRole(client: pg.ClientBase, role: string, ident: string): Promise<boolean> {
  const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
  if (exists.rows.length > 0) return false;
  await client.query('SAVEPOINT create_reader_role');
  try {
    await client.query(`CREATE ROLE ${ident} NOLOGIN`);
    return true;
  } catch (error) {
    await client.query('ROLLBACK TO SAVEPOINT create_reader_role');
    // Another database's migrate created it meanwhile (roles are cluster-wide, our lock is not).
    if (isPgError(error) && ROLE_EXISTS.has(error.code)) return false;
    if (isPgError(error) && error.code === '42501') {
      throw new ReaderRoleError(
        `cannot create role "${role}": the role that migrates lacks CREATEROLE; create it yourself (CREATE ROLE ${ident} NOLOGIN) and run again`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** An existing role must not already read more than the warehouse. */
async function assertOnlyReader(client: pg.ClientBase, role: string): Promise<void> {
  const { rows } = await client.query<{
    superuser: boolean;
    bypass_rls: boolean;
    inherits_owner: boolean;
    reads_secrets: boolean;
    migrator: string;
  }>(
    `SELECT r.rolsuper AS superuser, r.rolbypassrls AS bypass_rls,
            pg_has_role($1, current_user, 'USAGE') AS inherits_owner,
            CASE WHEN to_regclass('sync.webhook_endpoints') IS NULL THEN false
                 ELSE has_schema_privilege($1, 'sync', 'USAGE')
                      AND has_table_privilege($1, 'sync.webhook_endpoints', 'SELECT') END AS reads_secrets,
            current_user AS migrator
       FROM pg_roles r WHERE r.rolname = $1`,
    [role],
  );
  const found = rows[0];
  if (!found) return;
  const refuse = (why: string) =>
    new ReaderRoleError(`role "${role}" ${why}: a reader must not; choose another role name`);
  if (found.superuser || found.bypass_rls) throw refuse('is a superuser (or bypasses row security)');
  if (found.inherits_owner) throw refuse(`has the privileges of "${found.migrator}", the role that migrates`);
  if (found.reads_secrets) {
    throw refuse('can already read sync.webhook_endpoints (webhook secrets) through other grants');
  }
}

async function relationCounts(
  client: pg.ClientBase,
): Promise<{ tables: number; views: number; analyticsViews: number }> {
  const { rows } = await client.query<{ tables: number; views: number; analytics_views: number }>(
    `SELECT count(*) FILTER (WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('r', 'p', 'f'))::int AS tables,
            count(*) FILTER (WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('v', 'm'))::int AS views,
            count(*) FILTER (WHERE c.relnamespace = $2::regnamespace AND c.relkind IN ('v', 'm'))::int
              AS analytics_views
       FROM pg_class c WHERE c.relnamespace IN ($1::regnamespace, $2::regnamespace)`,
    [READER_SCHEMA, ANALYTICS_SCHEMA],
  );
  const found = rows[0];
  return {
    tables: found?.tables ?? 0,
    views: found?.views ?? 0,
    analyticsViews: found?.analytics_views ?? 0,
  };
}

function isPgError(error: unknown): error is { code: string } {
  return (
    typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
  );
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
