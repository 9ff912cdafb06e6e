import type { Queryable } from '../../db/queryable.ts';
import type { Batch } from './model.ts';

/**
 * The CTEs that write a scope's recomputed rows over its stored ones touching only what differs:
 * `fresh` (the rows as they should be), `stale` (as stored), `changed` (a pair `n`, `o` per key
 * whose row differs: new, changed or gone; a missing side is null), `written` (new and changed
 * rows upserted) and `removed` (gone rows deleted). Unchanged rows are not rewritten: a refresh
 * after an hour of scans writes only the facts that moved, and passes on only what they feed.
 */
export interface ChangedRows {
  /** schema.table */
  table: string;
  key: readonly string[];
  /** Every column, in the order of `fresh`. */
  columns: readonly string[];
  fresh: string;
  stale: string;
}

/** `(side).a = x.a AND ...` over the key. */
const keyEquals = (key: readonly string[], left: string, right: string) =>
  key.map((c) => `${left}.${c} = ${right}.${c}`).join(' AND ');

export function changedRowsCtes({ table, key, columns, fresh, stale }: ChangedRows): string {
  const first = key[0]!;
  const update = columns
    .filter((c) => !key.includes(c))
    .map((c) => `${c} = excluded.${c}`)
    .join(', ');
  return `fresh AS MATERIALIZED (${fresh}),
    stale AS MATERIALIZED (${stale}),
    changed AS MATERIALIZED (
      SELECT n, o FROM fresh n FULL JOIN stale o ON ${keyEquals(key, 'n', 'o')} WHERE n IS DISTINCT FROM o),
    written AS (
      INSERT INTO ${table} (${columns.join(', ')})
      SELECT ${columns.map((c) => `(n).${c}`).join(', ')} FROM changed WHERE (n).${first} IS NOT NULL
      ON CONFLICT (${key.join(', ')}) DO UPDATE SET ${update}),
    removed AS (
      DELETE FROM ${table} x USING changed c
       WHERE (c.n).${first} IS NULL AND ${key.map((k) => `x.${k} = (c.o).${k}`).join(' AND ')})`;
}

/** SQL: whether the pair's rows differ in `columns` (or one side is missing). */
export const differIn = (columns: readonly string[]) =>
  `(${columns.map((c) => `(n).${c}`).join(', ')}) IS DISTINCT FROM (${columns.map((c) => `(o).${c}`).join(', ')})`;

/**
 * One batch applied through changedRowsCtes: the keys the batch touched (`touched`, a query over
 * $1 the relation and $2 the batch's last id), their rows rewritten where they differ, then
 * `finish`, the statement's last part, which reads `changed` (a count, or what the change feeds).
 */
export async function applyChangedRows(
  db: Queryable,
  batch: Batch | null,
  change: ChangedRows & { touched: string; finish: string },
): Promise<void> {
  if (!batch) return;
  await db.query(
    `WITH touched AS MATERIALIZED (${change.touched}),\n     ${changedRowsCtes(change)}\n     ${change.finish}`,
    [batch.relation, batch.maxId],
  );
}
