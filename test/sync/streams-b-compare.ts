import type { PgTable } from 'drizzle-orm/pg-core';
import { tableInfo, valueKind } from '../../src/sync/columns.ts';
import { canonical } from '../../src/sync/normalize.ts';
import { parseDateTime, snakeOf } from '../../src/sync/rows.ts';
import type { Row } from '../../src/sync/types.ts';

/**
 * Generic warehouse-vs-truth comparison: every scalar field of a spec record against the column
 * named by its snake_case, both normalised by the column's type (instants for timestamptz, numbers
 * for integer/numeric, text as text). Lists and objects are children or jsonb: compared elsewhere.
 */

/** The mismatches of one stored row against one truth record, as readable lines. */
export function recordMismatches(
  table: PgTable,
  row: Row,
  record: Record<string, unknown>,
  timezone: string,
  options: { rename?: Record<string, string>; skip?: readonly string[] } = {},
): string[] {
  const types = tableInfo(table).types;
  const out: string[] = [];
  for (const [field, value] of Object.entries(record)) {
    if (value !== null && typeof value === 'object') continue;
    if (options.skip?.includes(field)) continue;
    const column = options.rename?.[field] ?? snakeOf(field);
    const sqlType = types.get(column);
    if (!sqlType) {
      out.push(`${field}: no column ${column} in ${tableInfo(table).name}`);
      continue;
    }
    const kind = valueKind(sqlType);
    const expected = canonical(kind === 'timestamp' ? parseDateTime(value, timezone) : value, kind);
    const actual = canonical(row[column], kind);
    if (expected !== actual) out.push(`${column}: stored ${actual} != truth ${expected}`);
  }
  return out;
}

/**
 * Compares a whole table with the truth: same keys, and each row equal to its record. Returns the
 * problems (empty when equal), at most `limit` of them, so a failure shows what differs.
 */
export function tableMismatches<T>(args: {
  table: PgTable;
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  records: readonly T[];
  recordKey: (record: T) => string;
  fields: (record: T) => Record<string, unknown>;
  timezone: string;
  rename?: Record<string, string>;
  skip?: readonly string[];
  /** Stored rows missing from the truth that are acceptable (e.g. vanished inventory, zeroed). */
  extraOk?: (row: Row) => boolean;
  limit?: number;
}): string[] {
  const problems: string[] = [];
  const byKey = new Map(args.rows.map((r) => [args.rowKey(r), r]));
  const seen = new Set<string>();
  for (const record of args.records) {
    const key = args.recordKey(record);
    seen.add(key);
    const row = byKey.get(key);
    if (!row) {
      problems.push(`${tableInfo(args.table).name} ${key}: missing`);
      continue;
    }
    const diffs = recordMismatches(args.table, row, args.fields(record), args.timezone, args);
    for (const d of diffs) problems.push(`${tableInfo(args.table).name} ${key}: ${d}`);
  }
  for (const [key, row] of byKey) {
    if (!seen.has(key) && !args.extraOk?.(row))
      problems.push(`${tableInfo(args.table).name} ${key}: not in truth`);
  }
  return problems.slice(0, args.limit ?? 20);
}
