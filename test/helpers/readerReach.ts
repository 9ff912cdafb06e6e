import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { quoteIdent } from '../../src/db/urls.ts';

/** Gives `role` LOGIN (the test server trusts local logins) and connects to `url` as it. */
export async function connectAs(admin: pg.Pool | pg.Client, url: string, role: string): Promise<pg.Client> {
  const password = randomBytes(12).toString('hex');
  await admin.query(`ALTER ROLE ${quoteIdent(role)} LOGIN PASSWORD '${password}'`);
  const as = new URL(url);
  as.username = role;
  as.password = password;
  const client = new pg.Client({ connectionString: as.toString() });
  await client.connect();
  return client;
}

/** Every relation of every schema `role` may select from (some columns at least), with those columns. */
export async function reachableRelations(
  admin: pg.Pool | pg.Client,
  role: string,
): Promise<Array<{ relation: string; columns: string[] }>> {
  const { rows } = await admin.query<{ relation: string; columns: string[] }>(
    `SELECT quote_ident(n.nspname) || '.' || quote_ident(c.relname) AS relation,
            array_agg(quote_ident(a.attname) ORDER BY a.attnum) AS columns
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
      WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')
        AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
        AND has_schema_privilege($1, n.oid, 'USAGE')
        AND has_column_privilege($1, c.oid, a.attnum, 'SELECT')
      GROUP BY 1 ORDER BY 1`,
    [role],
  );
  return rows;
}

/**
 * Every string and number inside a JSON value, objects and arrays walked to the leaves; with `keys`,
 * every member name too.
 */
export function leaves(value: unknown, keys = false, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) for (const item of value) leaves(item, keys, out);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      if (keys) out.push(key);
      leaves(item, keys, out);
    }
  }
  return out;
}

/**
 * Reads everything `role` can select, logged in as it (`client`), and answers each value (a column's,
 * or a member name or leaf of its JSON) that contains one of `needles`, as `relation.column: value`.
 */
export async function findInReach(
  admin: pg.Pool | pg.Client,
  client: pg.Client,
  role: string,
  needles: readonly string[],
): Promise<{ found: string[]; relations: number; rows: number }> {
  const found: string[] = [];
  let rowCount = 0;
  const reachable = await reachableRelations(admin, role);
  for (const { relation, columns } of reachable) {
    const { rows } = await client.query<Record<string, unknown>>(
      `SELECT ${columns.join(', ')} FROM ${relation}`,
    );
    rowCount += rows.length;
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        for (const leaf of leaves(value instanceof Date ? value.toISOString() : value, true)) {
          if (needles.some((needle) => leaf.toLowerCase().includes(needle.toLowerCase()))) {
            found.push(`${relation}.${column}: ${leaf}`);
          }
        }
      }
    }
  }
  return { found, relations: reachable.length, rows: rowCount };
}
