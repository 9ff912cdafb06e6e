import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import { CONTENT_HASH, type TableShape } from './diff.ts';
import { type ValueKind, valueKind } from './valueKind.ts';

/** What the engine needs to know about a table: its qualified name and each column's SQL type. */
export interface TableInfo {
  /** `"schema"."table"`, quoted, ready for SQL. */
  qualified: string;
  name: string;
  /** Column name -> SQL type (`text`, `integer`, `numeric(12, 2)`, `timestamp with time zone`...). */
  types: ReadonlyMap<string, string>;
}

const cache = new WeakMap<PgTable, TableInfo>();

/** Reads (once) the name and column types of a Drizzle table. */
export function tableInfo(table: PgTable): TableInfo {
  const hit = cache.get(table);
  if (hit) return hit;
  const config = getTableConfig(table);
  const types = new Map<string, string>();
  for (const column of config.columns) types.set(column.name, column.getSQLType());
  const qualified = `${config.schema ? `${quoteIdent(config.schema)}.` : ''}${quoteIdent(config.name)}`;
  const info: TableInfo = { qualified, name: config.name, types };
  cache.set(table, info);
  return info;
}

/** Quotes an SQL identifier. */
export function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}

/** Comparison shape of a table from its Drizzle definition: its key and each column's value kind. */
export function shapeOf(table: PgTable, key: readonly string[]): TableShape {
  const kinds = new Map<string, ValueKind>();
  for (const [column, sqlType] of tableInfo(table).types) kinds.set(column, valueKind(sqlType));
  return kinds.has(CONTENT_HASH) ? { key, kinds, hashColumn: CONTENT_HASH } : { key, kinds };
}
