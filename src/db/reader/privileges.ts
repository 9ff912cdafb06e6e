import type pg from 'pg';
import { quoteIdent } from '../urls.ts';
import { qualifiedName, READER_SCHEMAS, type ReadTarget } from './targets.ts';

/**
 * The privileges of a reader role, taken and given. `revokeBeyond` and `dropDefaultPrivileges`
 * only ever take away, and are committed before anything is given, so a grant that fails later
 * leaves the role with less than before, never more.
 */

/** Schemas where a reader's privileges are managed: the reader schemas, and sync, where it has none. */
const MANAGED_SCHEMAS = [...READER_SCHEMAS, 'sync'];

/** What a reader role is to read: SELECT on `targets`, by column (masked) or whole relations (full). */
export interface WantedPrivileges {
  role: string;
  targets: readonly ReadTarget[];
  byColumn: boolean;
}

interface HeldPrivilege {
  schema: string;
  name: string;
  /** Null for a privilege on the whole relation. */
  column: string | null;
  privilege: string;
}

/**
 * Revokes every privilege `role` holds itself (granted to it by this role, or by the owner when a
 * superuser runs this) on the relations and columns of the managed schemas beyond SELECT on
 * `targets`: column grants for a masked reader (`byColumn`), relation grants for a full one. Also
 * CREATE on the schemas and USAGE on sync. Grants to PUBLIC or through another role stay: the
 * checks after the grant refuse a role they would open more to.
 */
export async function revokeBeyond(client: pg.ClientBase, asked: WantedPrivileges): Promise<void> {
  const { role, targets, byColumn } = asked;
  const ident = quoteIdent(role);
  const wanted = new Map(targets.map((t) => [qualifiedName(t), new Set(t.columns.map((c) => c.name))]));
  // relation -> privilege -> the columns to revoke it on, or 'whole' for the relation grant.
  const revokes = new Map<string, Map<string, Set<string> | 'whole'>>();
  for (const held of await heldPrivileges(client, role)) {
    const relation = qualifiedName(held);
    const columns = wanted.get(relation);
    const kept =
      held.privilege === 'SELECT' &&
      columns !== undefined &&
      (byColumn ? held.column !== null && columns.has(held.column) : held.column === null);
    if (kept) continue;
    const privileges = revokes.get(relation) ?? new Map<string, Set<string> | 'whole'>();
    revokes.set(relation, privileges);
    const current = privileges.get(held.privilege);
    // Revoking a relation grant takes that privilege's column grants with it.
    if (held.column === null) privileges.set(held.privilege, 'whole');
    else if (current !== 'whole') privileges.set(held.privilege, (current ?? new Set()).add(held.column));
  }
  for (const [relation, privileges] of revokes) {
    for (const [privilege, columns] of privileges) {
      const what =
        columns === 'whole' ? privilege : `${privilege} (${[...columns].map(quoteIdent).join(', ')})`;
      await client.query(`REVOKE ${what} ON ${relation} FROM ${ident}`);
    }
  }
  for (const schema of READER_SCHEMAS) await client.query(`REVOKE CREATE ON SCHEMA ${schema} FROM ${ident}`);
  await client.query(`REVOKE ALL ON SCHEMA sync FROM ${ident}`);
}

/** What `role` holds itself on the relations and columns of the managed schemas. */
async function heldPrivileges(client: pg.ClientBase, role: string): Promise<HeldPrivilege[]> {
  const { rows } = await client.query<HeldPrivilege>(
    `SELECT n.nspname AS schema, c.relname AS name, NULL::text AS column, acl.privilege_type AS privilege
       FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace, aclexplode(c.relacl) acl
      WHERE n.nspname = ANY ($2) AND acl.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1)
     UNION ALL
     SELECT n.nspname, c.relname, a.attname, acl.privilege_type
       FROM pg_attribute a
       JOIN pg_class c ON c.oid = a.attrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace, aclexplode(a.attacl) acl
      WHERE n.nspname = ANY ($2) AND NOT a.attisdropped AND acl.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1)
      ORDER BY 1, 2, 3 NULLS FIRST`,
    [role, MANAGED_SCHEMAS],
  );
  return rows;
}

const DEFAULT_ACL_OBJECTS: Readonly<Record<string, string>> = {
  r: 'TABLES',
  S: 'SEQUENCES',
  f: 'FUNCTIONS',
  T: 'TYPES',
  n: 'SCHEMAS',
};

/**
 * Removes every default privilege that would give `role` something created later, whoever set it
 * (ALTER DEFAULT PRIVILEGES FOR ROLE needs membership of that role, or a superuser): a reader reads
 * what is marked, once granted, never what a later migration creates. Answers whether there were any.
 */
export async function dropDefaultPrivileges(client: pg.ClientBase, role: string): Promise<number> {
  const { rows } = await client.query<{ owner: string; schema: string | null; type: string }>(
    `SELECT DISTINCT pg_get_userbyid(d.defaclrole) AS owner, n.nspname AS schema, d.defaclobjtype::text AS type
       FROM pg_default_acl d LEFT JOIN pg_namespace n ON n.oid = d.defaclnamespace, aclexplode(d.defaclacl) acl
      WHERE acl.grantee = (SELECT oid FROM pg_roles WHERE rolname = $1)`,
    [role],
  );
  for (const { owner, schema, type } of rows) {
    const objects = DEFAULT_ACL_OBJECTS[type];
    if (!objects) continue;
    const where = schema === null ? '' : ` IN SCHEMA ${quoteIdent(schema)}`;
    await client.query(
      `ALTER DEFAULT PRIVILEGES FOR ROLE ${quoteIdent(owner)}${where} REVOKE ALL ON ${objects} FROM ${quoteIdent(role)}`,
    );
  }
  return rows.length;
}

/**
 * Gives `role` CONNECT on the database, USAGE on the reader schemas, and SELECT on `targets`: on
 * their columns for a masked reader (a column added later is not covered), on the whole relation
 * for a full one.
 */
export async function grantTargets(client: pg.ClientBase, asked: WantedPrivileges): Promise<void> {
  const { role, targets, byColumn } = asked;
  const ident = quoteIdent(role);
  const database = await client.query<{ name: string }>('SELECT current_database() AS name');
  await client.query(`GRANT CONNECT ON DATABASE ${quoteIdent(database.rows[0]!.name)} TO ${ident}`);
  for (const schema of READER_SCHEMAS) await client.query(`GRANT USAGE ON SCHEMA ${schema} TO ${ident}`);
  for (const target of targets) {
    const columns = byColumn ? ` (${target.columns.map((c) => quoteIdent(c.name)).join(', ')})` : '';
    await client.query(`GRANT SELECT${columns} ON ${qualifiedName(target)} TO ${ident}`);
  }
}
