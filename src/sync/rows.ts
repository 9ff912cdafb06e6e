import type { PgTable } from 'drizzle-orm/pg-core';
import { NULL_KEY_INT, NULL_KEY_TEXT } from '../db/keys.ts';
import { parseDateTime } from '../time/parse.ts';
import { tableInfo } from './columns.ts';
import { CONTENT_HASH, ENGINE_COLUMNS } from './diff.ts';
import type { ChildEntity, RecordEntity, Row, RowContext } from './types.ts';
import { type ValueKind, valueKind } from './valueKind.ts';

/** snake_case column -> camelCase field (`qty_on_hand` -> `qtyOnHand`). */
export function camelOf(column: string): string {
  return column.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** snake_case of a camelCase field (`qtyOnHand` -> `qty_on_hand`). */
export function snakeOf(field: string): string {
  return field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
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
  const keys = options.key ?? [];
  const omit = options.omit;
  const overrides = options.overrides ?? {};
  const row: Row = {};
  for (const { column, field, kind } of planOf(table)) {
    if (omit?.includes(column)) continue;
    if (column in overrides) row[column] = overrides[column];
    else if (column === 'raw') row[column] = record;
    else row[column] = convert(record[field], kind, ctx);
    if (row[column] == null && keys.includes(column))
      row[column] = kind === 'text' ? NULL_KEY_TEXT : NULL_KEY_INT;
  }
  return row;
}

interface ColumnPlan {
  column: string;
  field: string;
  kind: ValueKind;
}
const plans = new WeakMap<PgTable, ColumnPlan[]>();

/** Per table, once: which record field feeds which column and how it converts. */
function planOf(table: PgTable): ColumnPlan[] {
  let plan = plans.get(table);
  if (!plan) {
    plan = [...tableInfo(table).types]
      .filter(([column]) => !ENGINE_COLUMNS.has(column) && column !== CONTENT_HASH)
      .map(([column, sqlType]) => ({ column, field: camelOf(column), kind: valueKind(sqlType) }));
    plans.set(table, plan);
  }
  return plan;
}

function convert(value: unknown, kind: ValueKind, ctx: RowContext): unknown {
  if (value === undefined || value === null) return null;
  switch (kind) {
    case 'timestamp':
      return parseDateTime(value, ctx.timezone, ctx.ambiguousTime);
    case 'json':
      return value;
    case 'text':
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
    default:
      return value;
  }
}

/**
 * A parent table with one row per record, the counterpart of listChild: the record mapped by
 * `recordRow` under `key`, with `columns` (the scope's key column, `raw`...) laid over it.
 */
export function recordEntity<R extends Record<string, unknown>>(
  table: PgTable,
  key: readonly string[],
  columns: (record: R, ctx: RowContext) => Row,
): Pick<RecordEntity<R>, 'table' | 'key' | 'row'> {
  return {
    table,
    key,
    row: (record, ctx) => recordRow(table, record, ctx, { key, overrides: columns(record, ctx) }),
  };
}

/**
 * A child table with one row per item of a list the record carries (lines, events, notes...): each
 * item mapped by `recordRow` under the child's key, with `columns` (the parent's key columns and
 * whatever else the item does not carry itself) laid over it. A missing list means no children.
 */
export function listChild<R, I extends Record<string, unknown>>(child: {
  table: PgTable;
  key: readonly string[];
  parentKey: readonly string[];
  items: (record: R) => readonly I[] | null | undefined;
  columns: (record: R, item: I, ctx: RowContext) => Row;
}): ChildEntity<R> {
  const { table, key, parentKey, items, columns } = child;
  return {
    table,
    key,
    parentKey,
    rows: (record, ctx) =>
      (items(record) ?? []).map((item) =>
        recordRow(table, item, ctx, { key, overrides: columns(record, item, ctx) }),
      ),
  };
}

/**
 * A stored row back in the record's shape (camelCase fields, date-times as ISO strings), for rules
 * that compare a record with what the warehouse holds; engine columns are left out.
 */
export function recordOfRow(row: Row): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [column, value] of Object.entries(row)) {
    if (ENGINE_COLUMNS.has(column) || column === CONTENT_HASH) continue;
    out[camelOf(column)] = value instanceof Date ? value.toISOString() : value;
  }
  return out;
}

/**
 * The stored record of a parent row with list and detail columns, read one way for every stream:
 * `raw` holds what the list tells and every write refreshes it, `detail_raw` the last detail (its
 * extra members), which a list row whose detail failed leaves as it was. The detail's members
 * overlaid by the list's are the latest stored state; `detail_raw` alone can be several list
 * changes old (an IN that moved A -> B with its detail failing, then back to A).
 */
export function storedRecord(row: Row): Record<string, unknown> | null {
  const list = row.raw as Record<string, unknown> | null | undefined;
  const detail = row.detail_raw as Record<string, unknown> | null | undefined;
  if (!list && !detail) return null;
  return { ...(detail ?? {}), ...(list ?? {}) };
}

/**
 * The columns of a parent table only its detail fills: every column the list row (`listFields`,
 * camelCase) does not name, besides `raw` and the engine's own. One rule for every stream with list
 * and detail columns: a list-based row leaves these out, so the diff compares only what the list
 * can tell, and a failed detail leaves them as stored.
 */
export function detailOnlyColumns(table: PgTable, listFields: readonly string[]): string[] {
  const listed = new Set([...listFields.map(snakeOf), 'raw']);
  return [...tableInfo(table).types.keys()].filter(
    (c) => !listed.has(c) && c !== 'synced_at' && c !== CONTENT_HASH,
  );
}
