import pg from 'pg';
import { cliCommand } from '../runtime/invocation.ts';
import { MIGRATION_LOCK_KEY } from './migrationLock.ts';
import { PII_MARKER } from './pii/marking.ts';
import { roleNameProblem } from './roleName.ts';
import { databaseNameOf, effectiveUrl, quoteIdent } from './urls.ts';

/** The schema a reader may read: the synced records and the views over them. */
export const READER_SCHEMA = 'fulfillment';
/** The model for questions (src/db/schema/analytics/): no personal data, every relation readable. */
export const ANALYTICS_SCHEMA = 'analytics';
/** The masking views a reader reads instead of the tables holding consumer personal data. */
export const MASKED_SCHEMA = 'fulfillment_masked';
/** Schemas whose every relation, present and future, a reader of either kind reads. */
const OPEN_SCHEMAS = [MASKED_SCHEMA, ANALYTICS_SCHEMA] as const;
/** Every schema a reader may read. */
export const READER_SCHEMAS = [READER_SCHEMA, ...OPEN_SCHEMAS] as const;

/** A POSIX regex finding the PII marker in a column comment (src/db/pii/marking.ts). */
const PII_COMMENT = `\\m${PII_MARKER}\\M`;

/**
 * What a role reads. `masked` (FULFILLMENT_READER_ROLE): schema fulfillment except the relations
 * with a column whose comment marks it PII, and the masking views of fulfillment_masked instead.
 * `full` (FULFILLMENT_FULL_READER_ROLE): all of schema fulfillment, personal data in clear.
 */
export type ReaderAccess = 'masked' | 'full';

/** What `grantReadAccess` did. */
export interface ReaderGrant {
  role: string;
  access: ReaderAccess;
  /** Whether the role was created (NOLOGIN) by this call. */
  created: boolean;
  /** Tables and views of schema fulfillment the role can now read. */
  tables: number;
  views: number;
  /** Relations of schema fulfillment holding personal data the role cannot read (masked only). */
  withheld: string[];
  /** Masking views of fulfillment_masked the role can read. */
  masked: number;
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
 * Makes `role` a reader of the warehouse and nothing more, in one transaction on `client`: creates
 * it NOLOGIN if missing, grants CONNECT on this database, USAGE on schemas fulfillment,
 * fulfillment_masked and analytics, and SELECT as `access` says. A `masked` reader gets SELECT on
 * every table and view of fulfillment whose column comments carry no PII marker, read from the
 * migrated catalog each time (so a table added later becomes readable at the next migrate or
 * grant-reader, once its comments say whether it holds personal data: fail closed, no default
 * privileges there); afterwards no column marked PII may be readable by it through any grant or
 * role membership, or nothing is granted. A `full` reader gets SELECT on all of fulfillment, on
 * tables created there later too (default privileges). Both read every relation of
 * fulfillment_masked (the masking views) and analytics (no personal data), and those created there
 * later. Other privileges on those schemas and their relations are revoked, so the role cannot
 * write there. Refuses a role that could read everything anyway (a superuser, a member of the
 * migrating role) or that already reads `sync.webhook_endpoints` (webhook secrets). Idempotent.
 * Run it where migrations run (under their advisory lock): concurrent GRANTs on the same objects
 * can fail with "tuple concurrently updated".
 */
export async function grantReadAccess(
  client: pg.ClientBase,
  role: string,
  access: ReaderAccess = 'masked',
): Promise<ReaderGrant> {
  const problem = roleNameProblem(role);
  if (problem) throw new ReaderRoleError(`role name ${problem}`);
  const ident = quoteIdent(role);
  await client.query('BEGIN');
  try {
    await assertSchemasExist(client);
    const created = await ensureRole(client, role, ident);
    if (!created) await assertOnlyReader(client, role);
    const database = await client.query<{ name: string }>('SELECT current_database() AS name');
    await client.query(`GRANT CONNECT ON DATABASE ${quoteIdent(database.rows[0]!.name)} TO ${ident}`);
    for (const schema of READER_SCHEMAS) await resetSchemaAccess(client, schema, ident);
    const relations = await readerRelations(client);
    const readable = access === 'full' ? relations : relations.filter((r) => !r.personal);
    for (const relation of readable) {
      await client.query(`GRANT SELECT ON ${READER_SCHEMA}.${quoteIdent(relation.name)} TO ${ident}`);
    }
    if (access === 'full') {
      await client.query(
        `ALTER DEFAULT PRIVILEGES IN SCHEMA ${READER_SCHEMA} GRANT SELECT ON TABLES TO ${ident}`,
      );
    }
    for (const schema of OPEN_SCHEMAS) {
      await client.query(`GRANT SELECT ON ALL TABLES IN SCHEMA ${schema} TO ${ident}`);
      await client.query(`ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} GRANT SELECT ON TABLES TO ${ident}`);
    }
    if (access === 'masked') await assertReadsNoPersonalData(client, role);
    const counts = await viewCounts(client);
    await client.query('COMMIT');
    return {
      role,
      access,
      created,
      tables: readable.filter((r) => r.kind === 'table').length,
      views: readable.filter((r) => r.kind === 'view').length,
      withheld: relations
        .filter((r) => r.personal && access === 'masked')
        .map((r) => `${READER_SCHEMA}.${r.name}`),
      ...counts,
    };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    if (error instanceof ReaderRoleError) throw error;
    throw new ReaderRoleError(`granting read access to role "${role}" failed: ${firstLine(error)}`, {
      cause: error,
    });
  }
}

/** Takes every privilege of the role on `schema` and its relations away, then gives back USAGE. */
async function resetSchemaAccess(client: pg.ClientBase, schema: string, ident: string): Promise<void> {
  const statements = [
    `REVOKE ALL ON SCHEMA ${schema} FROM ${ident}`,
    `GRANT USAGE ON SCHEMA ${schema} TO ${ident}`,
    `REVOKE ALL ON ALL TABLES IN SCHEMA ${schema} FROM ${ident}`,
    `ALTER DEFAULT PRIVILEGES IN SCHEMA ${schema} REVOKE ALL ON TABLES FROM ${ident}`,
  ];
  for (const statement of statements) await client.query(statement);
}

interface ReaderRelation {
  name: string;
  kind: 'table' | 'view';
  /** Whether a column's comment marks it PII. */
  personal: boolean;
}

/** The tables and views of schema fulfillment, each with whether it holds personal data. */
async function readerRelations(client: pg.ClientBase): Promise<ReaderRelation[]> {
  const { rows } = await client.query<ReaderRelation>(
    `SELECT c.relname AS name,
            CASE WHEN c.relkind IN ('v', 'm') THEN 'view' ELSE 'table' END AS kind,
            EXISTS (SELECT 1 FROM pg_attribute a
                     WHERE a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
                       AND col_description(c.oid, a.attnum) ~ $2) AS personal
       FROM pg_class c
      WHERE c.relnamespace = $1::regnamespace AND c.relkind IN ('r', 'p', 'f', 'v', 'm')
      ORDER BY c.relname`,
    [READER_SCHEMA, PII_COMMENT],
  );
  return rows;
}

/**
 * After the grants, a masked reader must not read a column marked PII, in any schema, by any path
 * (a role it is a member of included).
 */
async function assertReadsNoPersonalData(client: pg.ClientBase, role: string): Promise<void> {
  const { rows } = await client.query<{ column: string }>(
    `SELECT n.nspname || '.' || c.relname || '.' || a.attname AS column
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') AND col_description(c.oid, a.attnum) ~ $2
        AND has_schema_privilege($1, n.oid, 'USAGE') AND has_column_privilege($1, c.oid, a.attnum, 'SELECT')
      ORDER BY 1 LIMIT 3`,
    [role, PII_COMMENT],
  );
  if (rows.length > 0) {
    throw new ReaderRoleError(
      `role "${role}" can still read personal data in clear (${rows.map((r) => r.column).join(', ')}) through other grants or a role it belongs to (a full reader?): a masked reader must not; revoke those or choose another role name`,
    );
  }
}

/**
 * `grantReadAccess` on the database at `url`, under the migrations' advisory lock (a grant racing a
 * migrate or another grant could fail). Never names the URL in an error: it may hold a password.
 */
export async function applyReaderRole(
  configuredUrl: string,
  role: string,
  access: ReaderAccess = 'masked',
): Promise<ReaderGrant> {
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
    return await grantReadAccess(client, role, access);
  } finally {
    // Ending the session releases the advisory lock even if the unlock is never sent.
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [MIGRATION_LOCK_KEY]).catch(() => {});
    await client.end().catch(() => {});
  }
}

/** A one-line summary of a grant, for `migrate` and `grant-reader`. */
export function describeGrant(grant: ReaderGrant): string {
  const role = grant.created ? `created role "${grant.role}" (NOLOGIN)` : `role "${grant.role}"`;
  const counts = `${grant.tables} tables, ${grant.views} views`;
  const open = `${MASKED_SCHEMA} (${grant.masked} masking views) and ${ANALYTICS_SCHEMA} (${grant.analyticsViews} views)`;
  if (grant.access === 'full') {
    return `${role} can read schema ${READER_SCHEMA} in full, personal data in clear (${counts}, and those added later), ${open}, and nothing else`;
  }
  const withheld = grant.withheld.map((name) => name.slice(READER_SCHEMA.length + 1)).join(', ');
  const personal = withheld ? `; not ${withheld}, which hold personal data` : '';
  return `${role} can read schema ${READER_SCHEMA} (${counts}${personal}), ${open}, and nothing else`;
}

async function assertSchemasExist(client: pg.ClientBase): Promise<void> {
  const found = await client.query<{ name: string }>(
    'SELECT nspname AS name FROM pg_namespace WHERE nspname = ANY ($1)',
    [[...READER_SCHEMAS]],
  );
  const missing = READER_SCHEMAS.filter((s) => !found.rows.some((r) => r.name === s));
  if (missing.length > 0) {
    throw new ReaderRoleError(
      `schema ${missing[0]} does not exist in this database: run \`${cliCommand('migrate')}\` first`,
    );
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

/** Views and materialized views of the masking and analytics schemas. */
async function viewCounts(client: pg.ClientBase): Promise<{ masked: number; analyticsViews: number }> {
  const { rows } = await client.query<{ masked: number; analytics_views: number }>(
    `SELECT count(*) FILTER (WHERE c.relnamespace = $1::regnamespace)::int AS masked,
            count(*) FILTER (WHERE c.relnamespace = $2::regnamespace)::int AS analytics_views
       FROM pg_class c WHERE c.relkind IN ('v', 'm')`,
    [MASKED_SCHEMA, ANALYTICS_SCHEMA],
  );
  return { masked: rows[0]?.masked ?? 0, analyticsViews: rows[0]?.analytics_views ?? 0 };
}

function isPgError(error: unknown): error is { code: string } {
  return (
    typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
  );
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}
