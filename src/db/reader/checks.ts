import type pg from 'pg';
import { PII_MARKER } from '../pii/marking.ts';
import { quoteIdent } from '../urls.ts';
import { READER_SCHEMAS, type ReadTarget } from './targets.ts';

/** Read access that cannot be granted as asked; the message is one line, naming what to fix. */
export class ReaderRoleError extends Error {
  override name = 'ReaderRoleError';
}

// 42710 duplicate_object; 23505 when two sessions create the same role at once (pg_authid's index).
const ROLE_EXISTS = new Set(['42710', '23505']);

/** Creates the role NOLOGIN unless it exists; answers whether this call created it. */
export async function ensureRole(client: pg.ClientBase, role: string): Promise<boolean> {
  const exists = await client.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [role]);
  if (exists.rows.length > 0) return false;
  await client.query('SAVEPOINT create_reader_role');
  try {
    await client.query(`CREATE ROLE ${quoteIdent(role)} NOLOGIN`);
    return true;
  } catch (error) {
    await client.query('ROLLBACK TO SAVEPOINT create_reader_role');
    // Another database's migrate created it meanwhile (roles are cluster-wide, our lock is not).
    if (isPgError(error) && ROLE_EXISTS.has(error.code)) return false;
    if (isPgError(error) && error.code === '42501') {
      throw new ReaderRoleError(
        `cannot create role "${role}": the role that migrates lacks CREATEROLE; create it yourself (CREATE ROLE ${quoteIdent(role)} NOLOGIN) and run again`,
        { cause: error },
      );
    }
    throw error;
  }
}

/** An existing role must not already read more than the warehouse. */
export async function assertOnlyReader(client: pg.ClientBase, role: string): Promise<void> {
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

/** A POSIX regex finding the PII marker in a column comment (src/db/pii/marking.ts). */
const PII_COMMENT = `\\m${PII_MARKER}\\M`;

/**
 * After the grants, a masked reader must not read a column marked PII, in any schema, by any path
 * (a role it is a member of included).
 */
export async function assertReadsNoPersonalData(client: pg.ClientBase, role: string): Promise<void> {
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
 * After the grants, `role` must read nothing of the reader schemas and schema sync beyond `targets`
 * (for a masked reader: what is marked), by any path: PUBLIC, a role it belongs to, a grant by
 * another role. What it reads there is named so it can be revoked.
 */
export async function assertReadsOnly(
  client: pg.ClientBase,
  role: string,
  targets: readonly ReadTarget[],
): Promise<void> {
  const allowed = targets.flatMap((t) => t.columns.map((c) => `${t.schema}.${t.name}.${c.name}`));
  const { rows } = await client.query<{ column: string }>(
    `SELECT n.nspname || '.' || c.relname || '.' || a.attname AS column
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE n.nspname = ANY ($2) AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
        AND has_schema_privilege($1, n.oid, 'USAGE') AND has_column_privilege($1, c.oid, a.attnum, 'SELECT')
        AND NOT (n.nspname || '.' || c.relname || '.' || a.attname) = ANY ($3)
      ORDER BY 1`,
    [role, [...READER_SCHEMAS, 'sync'], allowed],
  );
  if (rows.length > 0) {
    const shown = rows.slice(0, 3).map((r) => r.column);
    const more = rows.length > 3 ? ` and ${rows.length - 3} more` : '';
    throw new ReaderRoleError(
      `role "${role}" can still read columns not marked safe (${shown.join(', ')}${more}) through grants to PUBLIC, by another role, or of a role it belongs to: a reader must not; revoke those or choose another role name`,
    );
  }
}

export function isPgError(error: unknown): error is { code: string } {
  return (
    typeof error === 'object' && error !== null && typeof (error as { code?: unknown }).code === 'string'
  );
}
