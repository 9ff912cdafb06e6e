import type { PgTable } from 'drizzle-orm/pg-core';
import { NULL_KEY_INT, NULL_KEY_TEXT } from '../db/keys.ts';
import { parseUpstreamDateTime } from '../time/parse.ts';
import { tableInfo, valueKind } from './columns.ts';
import { ENGINE_COLUMNS } from './diff.ts';
import type { Row, RowContext } from './types.ts';

/** snake_case column -> camelCase field (`qty_on_hand` -> `qtyOnHand`). */
export function camelOf(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** snake_case of a camelCase field (`qtyOnHand` -> `qty_on_hand`). */
export function snakeOf(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/** An upstream date-time as an instant: with an offset as given, without one as wall-clock time in `timezone`. */
export function parseDateTime(value: unknown, timezone: string): Date | null {
  if (value === null || value === undefined || value === '') return null;
  return parseUpstreamDateTime(String(value), timezone);
}

export interface RecordRowOptions {
  /** Key columns: a null key part is stored as '' (text) or 0 (numbers), see src/db/keys.ts. */
  key?: readonly string[];
  /** Values that do not come from the record's own fields (scope ids, hashes, parent keys). */
  overrides?: Row;
  /** Columns to leave out entirely (maintained elsewhere). */
  omit?: readonly string[];
}

/**
 * The row of `table` for one record: each column takes the record field of the same name in
 * camelCase, converted to the column's type; `raw` takes the whole record; missing fields are null.
 */
export function recordRow(
  table: PgTable,
  record: Record<string, unknown>,
  ctx: RowContext,
  options: RecordRowOptions = {},
): Row {
  const info = tableInfo(table);
  const keys = new Set(options.key ?? []);
  const omit = new Set(options.omit ?? []);
  const overrides = options.overrides ?? {};
  const row: Row = {};
  for (const [column, sqlType] of info.types) {
    if (ENGINE_COLUMNS.has(column) || omit.has(column)) continue;
    if (column in overrides) {
      row[column] = overrides[column];
    } else if (column === 'raw') {
      row[column] = record;
    } else {
      row[column] = convert(record[camelOf(column)], valueKind(sqlType), ctx.timezone);
    }
    if (keys.has(column) && (row[column] === null || row[column] === undefined)) {
      row[column] = valueKind(sqlType) === 'text' ? NULL_KEY_TEXT : NULL_KEY_INT;
    }
  }
  return row;
}

function convert(value: unknown, kind: ReturnType<typeof valueKind>, timezone: string): unknown {
  if (value === undefined || value === null) return null;
  switch (kind) {
    case 'timestamp':
      return parseDateTime(value, timezone);
    case 'json':
      return value;
    case 'text':
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
    default:
      return value;
  }
}
