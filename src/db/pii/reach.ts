import type { Queryable } from '../queryable.ts';
import type { AuditTarget } from './audit.ts';

/** A relation a role can select from, with the columns it can select and those `pii-audit` scans. */
export interface ReachedRelation extends AuditTarget {
  /** Every column the role can select (of any type). */
  readable: number;
}

/**
 * Every table, view and materialized view `role` can select from, in every schema but Postgres'
 * own, through any path (its grants, PUBLIC's, a role it belongs to), with the columns it can
 * select that can carry text: text of any kind and JSON. Numbers, dates and flags are not scanned.
 */
export async function reachedRelations(db: Queryable, role: string): Promise<ReachedRelation[]> {
  const { rows } = await db.query<{
    schema: string;
    name: string;
    readable: number;
    columns: { name: string; json: boolean }[];
    synced_at: boolean;
  }>(
    `SELECT n.nspname AS schema, c.relname AS name, count(*)::int AS readable,
            coalesce(json_agg(json_build_object('name', a.attname, 'json', t.typname IN ('json', 'jsonb'))
                              ORDER BY a.attnum)
                       FILTER (WHERE t.typcategory = 'S' OR t.typname IN ('json', 'jsonb')), '[]') AS columns,
            bool_or(a.attname = 'synced_at') AS synced_at
       FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace
       JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
       JOIN pg_type t ON t.oid = a.atttypid
      WHERE c.relkind IN ('r', 'p', 'v', 'm', 'f')
        AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname NOT LIKE 'pg\\_%'
        AND has_schema_privilege($1, n.oid, 'USAGE')
        AND has_column_privilege($1, c.oid, a.attnum, 'SELECT')
      GROUP BY n.nspname, c.relname
      ORDER BY n.nspname, c.relname`,
    [role],
  );
  return rows.map((r) => ({
    schema: r.schema,
    name: r.name,
    readable: r.readable,
    columns: r.columns,
    newestFirst: r.synced_at ? 'synced_at' : undefined,
  }));
}
