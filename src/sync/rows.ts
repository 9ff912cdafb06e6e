import { fromZonedTime } from 'date-fns-tz';
import type { PgTable } from 'drizzle-orm/pg-core';
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

const HAS_OFFSET = /(?:Z|[+-]\d{2}:?\d{2})$/;

/** An upstream date-time as an instant: with an offset as given, without one as wall-clock time in `timezone`. */
export function parseDateTime(value: unknown, timezone: string): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const text = String(value);
  const d = HAS_OFFSET.test(text) ? new Date(text) : fromZonedTime(text.replace(' ', 'T'), timezone);
  if (Number.isNaN(d.getTime())) throw new Error(`Unparseable date-time ${JSON.stringify(text)}`);
  return d;
}

export interface RecordRowOptions {
  /** Key columns: a text key part that is null is stored as ''. */
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
    if (keys.has(column) && (row[column] === null || row[column] === undefined)) row[column] = '';
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
