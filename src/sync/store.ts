import type { PgTable } from 'drizzle-orm/pg-core';
import type { PoolClient } from 'pg';
import type { Queryable } from '../db/queryable.ts';
import { quoteIdent, tableInfo } from './columns.ts';
import { copyRows } from './copy.ts';
import type { Row } from './types.ts';

/**
 * Set-based reads and writes of rows: every statement handles a whole chunk as one JSON recordset,
 * so the round trips grow with chunks, never with rows.
 */

/** Rows per statement: big enough to amortise the round trip, small enough for memory. */
export const CHUNK_ROWS = 5000;

function chunks<T>(items: readonly T[], size = CHUNK_ROWS): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The rows as a relation: `json_populate_recordset(NULL::<table>, $n::json)`. One JSON text per
 * chunk: V8's JSON.stringify is ~10x faster than pg's per-element array literals, and Postgres
 * parses `json` (not jsonb) in C; column types come from the table's own row type.
 */
function recordsetOf(table: PgTable, columns: readonly string[], rows: readonly Row[], param = 1) {
  const info = tableInfo(table);
  for (const column of columns) {
    if (!info.types.has(column))
      throw new Error(`Column ${column} is not in ${info.qualified}: fix the stream's row builder.`);
  }
  const source = `json_populate_recordset(NULL::${info.qualified}, $${param}::json)`;
  // Dates serialise as ISO instants; jsonb columns take nested values as they are.
  return { source, param: JSON.stringify(rows) };
}

function columnList(columns: readonly string[]): string {
  return columns.map(quoteIdent).join(', ');
}

/** Stored rows whose `byColumns` equal those of one of `keys` (one query per chunk). */
export async function loadByKeys(
  db: Queryable,
  table: PgTable,
  byColumns: readonly string[],
  keys: readonly Row[],
  /** Only these columns (default: all). */
  columns?: readonly string[],
): Promise<Row[]> {
  if (keys.length === 0) return [];
  const { qualified } = tableInfo(table);
  const selected = columns ? columnList(columns) : '*';
  const out: Row[] = [];
  for (const chunk of chunks(keys, 20_000)) {
    const keyRows = chunk.map((k) => Object.fromEntries(byColumns.map((c) => [c, k[c]])));
    const u = recordsetOf(table, byColumns, keyRows);
    const cols = columnList(byColumns);
    const sql = `SELECT ${selected} FROM ${qualified} WHERE (${cols}) IN (SELECT ${cols} FROM ${u.source})`;
    const res = await db.query(sql, [u.param]);
    for (const row of res.rows) out.push(row as Row);
  }
  return out;
}

/**
 * Stored rows matching `where` (column -> value) whose key is not among `present`, and (if given)
 * whose `goneColumn` is null: what a snapshot no longer returns, found in SQL rather than by
 * reading the whole scope into memory.
 */
export async function loadMissing(
  db: Queryable,
  table: PgTable,
  where: Row,
  key: readonly string[],
  present: readonly Row[],
  goneColumn?: string,
  /** Only these columns (default: all). */
  selected?: readonly string[],
): Promise<Row[]> {
  const { qualified } = tableInfo(table);
  const columns = Object.keys(where);
  const clauses = columns.map((c, i) => `${quoteIdent(c)} = $${i + 1}`);
  if (goneColumn) clauses.push(`${quoteIdent(goneColumn)} IS NULL`);
  const keyRows = present.map((k) => Object.fromEntries(key.map((c) => [c, k[c]])));
  const u = recordsetOf(table, key, keyRows, columns.length + 1);
  const cols = columnList(key);
  clauses.push(`(${cols}) NOT IN (SELECT ${cols} FROM ${u.source})`);
  const what = selected ? columnList(selected) : '*';
  const res = await db.query(`SELECT ${what} FROM ${qualified} WHERE ${clauses.join(' AND ')}`, [
    ...Object.values(where),
    u.param,
  ]);
  return res.rows as Row[];
}

/** How many stored rows match `where` (and have `goneColumn` null, if given). */
export async function countWhere(
  db: Queryable,
  table: PgTable,
  where: Row,
  goneColumn?: string,
): Promise<number> {
  const columns = Object.keys(where);
  const clauses = columns.map((c, i) => `${quoteIdent(c)} = $${i + 1}`);
  if (goneColumn) clauses.push(`${quoteIdent(goneColumn)} IS NULL`);
  const res = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ${tableInfo(table).qualified} WHERE ${clauses.join(' AND ') || 'true'}`,
    Object.values(where),
  );
  return res.rows[0]?.n ?? 0;
}

function columnsOfRows(rows: readonly Row[]): string[] {
  const set = new Set<string>();
  for (const row of rows) for (const k of Object.keys(row)) set.add(k);
  return [...set];
}

/**
 * Writes rows: COPY for rows known to be new (the caller holds the stream's lease and has read the
 * stored keys), else `upsertRows`. `syncedAt` (the run's clock) stamps `synced_at` on every row
 * written. Returns the number of rows written.
 */
export async function writeRows(
  tx: PoolClient,
  table: PgTable,
  rows: readonly Row[],
  options: { key: readonly string[]; upsert: boolean; syncedAt: Date },
): Promise<number> {
  if (rows.length === 0) return 0;
  if (!options.upsert) {
    await copyRows(tx, table, rows, { syncedAt: options.syncedAt });
    return rows.length;
  }
  return upsertRows(tx, table, rows, options.key, options.syncedAt);
}

/**
 * `INSERT ... ON CONFLICT (key) DO UPDATE` of changed rows, one statement per chunk; only the
 * columns the rows carry are set, and `synced_at` is set to `syncedAt` on every written row.
 */
export async function upsertRows(
  db: Queryable,
  table: PgTable,
  rows: readonly Row[],
  key: readonly string[],
  syncedAt: Date,
): Promise<number> {
  if (rows.length === 0) return 0;
  const info = tableInfo(table);
  const columns = columnsOfRows(rows).filter((c) => c !== 'synced_at');
  const stamp = info.types.has('synced_at');
  const target = stamp ? [...columns, 'synced_at'] : columns;
  const keySet = new Set(key);
  const updates = columns
    .filter((c) => !keySet.has(c))
    .map((c) => `${quoteIdent(c)} = EXCLUDED.${quoteIdent(c)}`);
  if (stamp) updates.push(`"synced_at" = EXCLUDED."synced_at"`);
  const conflict = ` ON CONFLICT (${columnList(key)}) DO ${updates.length ? `UPDATE SET ${updates.join(', ')}` : 'NOTHING'}`;
  for (const chunk of chunks(rows)) {
    const u = recordsetOf(table, columns, chunk);
    const select = `SELECT ${columnList(columns)}${stamp ? ', $2::timestamptz' : ''} FROM ${u.source}`;
    const sql = `INSERT INTO ${info.qualified} (${columnList(target)}) ${select}${conflict}`;
    await db.query(sql, stamp ? [u.param, syncedAt] : [u.param]);
  }
  return rows.length;
}

/** Deletes the rows with the given keys (one statement per chunk). */
export async function deleteByKeys(
  tx: Queryable,
  table: PgTable,
  key: readonly string[],
  rows: readonly Row[],
): Promise<number> {
  if (rows.length === 0) return 0;
  const { qualified } = tableInfo(table);
  for (const chunk of chunks(rows)) {
    const keyRows = chunk.map((k) => Object.fromEntries(key.map((c) => [c, k[c]])));
    const u = recordsetOf(table, key, keyRows);
    const cols = columnList(key);
    await tx.query(`DELETE FROM ${qualified} WHERE (${cols}) IN (SELECT ${cols} FROM ${u.source})`, [
      u.param,
    ]);
  }
  return rows.length;
}
