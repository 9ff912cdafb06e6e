import { getTableConfig, type PgTable } from 'drizzle-orm/pg-core';
import type pg from 'pg';
import type { StreamName } from '../../src/config/types.ts';
import { NULL_KEY_INT, NULL_KEY_TEXT } from '../../src/db/keys.ts';
import type { SimTruth } from '../../src/simulator/truth.ts';
import { canonical } from '../../src/sync/normalize.ts';
import { snakeOf } from '../../src/sync/rows.ts';
import type { Row } from '../../src/sync/types.ts';
import { type ValueKind, valueKind } from '../../src/sync/valueKind.ts';
import { parseDateTime } from '../../src/time/parse.ts';
import { type TruthCheck, truthChecks } from './warehouseTruthChecks.ts';

/**
 * The one warehouse-vs-truth comparison of the tests: every fulfillment table a stream fills against
 * the simulator's `SimTruth`. Each truth field is compared with the column named by its snake_case,
 * both sides normalised by that column's type; rows are matched by the table's primary key, so rows
 * missing from the warehouse and rows the truth does not have are both reported.
 */

export type { TruthCheck } from './warehouseTruthChecks.ts';

/** What `warehouseMismatches` compares. */
export interface WarehouseTruthOptions {
  /** Only the tables these streams fill (default: every stream). */
  streams?: readonly StreamName[];
  /**
   * Only the orders a shipment or return names (the orders stream fetches no others); the check
   * then also fails when no order is named, so it cannot pass vacuously.
   */
  namedOrdersOnly?: boolean;
  /** At most this many problems are returned (default 20). */
  limit?: number;
  /** Warehouse rows left out of the comparison (e.g. records a test expects to be quarantined). */
  ignore?: (table: string, row: Row) => boolean;
}

/** Where the warehouse behind `pool` differs from `truth`, as readable lines; empty when equal. */
export async function warehouseMismatches(
  pool: pg.Pool,
  truth: SimTruth,
  options: WarehouseTruthOptions = {},
): Promise<string[]> {
  const problems: string[] = [];
  await eachTable(pool, truth, options, (check, rows) =>
    problems.push(...tableMismatches(check, rows, truth.timezone)),
  );
  return problems.slice(0, options.limit ?? 20);
}

/** `compareTable` for every table the options select: the structured form of `warehouseMismatches`. */
export async function compareWarehouse(
  pool: pg.Pool,
  truth: SimTruth,
  options: Omit<WarehouseTruthOptions, 'limit'> = {},
): Promise<TableComparison[]> {
  const tables: TableComparison[] = [];
  await eachTable(pool, truth, options, (check, rows) =>
    tables.push(compareTable(check, rows, truth.timezone)),
  );
  return tables;
}

/** Calls `visit` with each selected check and its table's stored rows (less the ignored ones). */
async function eachTable(
  pool: pg.Pool,
  truth: SimTruth,
  options: WarehouseTruthOptions,
  visit: (check: TruthCheck, rows: Row[]) => void,
): Promise<void> {
  for (const check of truthChecks(truth, options)) {
    const name = getTableConfig(check.table).name;
    const rows = ((await pool.query(`SELECT * FROM fulfillment.${name}`)).rows as Row[]).filter(
      (row) => !options.ignore?.(name, row),
    );
    visit(check, rows);
  }
}

/**
 * The one normalisation: a truth value or a stored value in the comparable form of a column of
 * `kind` (wall-clock date-times as instants in `timezone`, numbers as numbers, jsonb key-sorted).
 */
export function normalised(value: unknown, kind: ValueKind, timezone: string): string | null {
  const v = kind === 'timestamp' && typeof value === 'string' ? parseDateTime(value, timezone) : value;
  return canonical(v, kind);
}

interface Shape {
  kinds: Map<string, ValueKind>;
  key: string[];
  name: string;
}
// Read once per table: recordMismatches runs for every row of a week's warehouse.
const shapes = new WeakMap<PgTable, Shape>();

/** Column name -> value kind of a table, and its primary-key columns. */
function shapeOf(table: PgTable): Shape {
  const hit = shapes.get(table);
  if (hit) return hit;
  const config = getTableConfig(table);
  const kinds = new Map(config.columns.map((c) => [c.name, valueKind(c.getSQLType())]));
  const key = [
    ...config.columns.filter((c) => c.primary).map((c) => c.name),
    ...config.primaryKeys.flatMap((p) => p.columns.map((c) => c.name)),
  ];
  const shape = { kinds, key, name: config.name };
  shapes.set(table, shape);
  return shape;
}

/** A key part as stored: null text keys are '' and null integer keys 0 (src/db/keys.ts). */
function keyPart(value: unknown, kind: ValueKind, timezone: string): string | null {
  if (value !== null && value !== undefined) return normalised(value, kind, timezone);
  return normalised(kind === 'text' ? NULL_KEY_TEXT : NULL_KEY_INT, kind, timezone);
}

/** The mismatches of one stored row against one truth record's fields, as readable lines. */
export function recordMismatches(
  table: PgTable,
  row: Row,
  fields: Record<string, unknown>,
  timezone: string,
  options: Pick<TruthCheck, 'rename' | 'skip' | 'children'> = {},
): string[] {
  const { kinds, key, name } = shapeOf(table);
  const out: string[] = [];
  for (const [field, value] of Object.entries(fields)) {
    if (options.skip?.includes(field) || options.children?.includes(field)) continue;
    const column = options.rename?.[field] ?? snakeOf(field);
    const kind = kinds.get(column);
    if (!kind) {
      out.push(`${field}: no column ${column} in ${name}`);
      continue;
    }
    const expected = key.includes(column)
      ? keyPart(value, kind, timezone)
      : normalised(value, kind, timezone);
    const actual = normalised(row[column], kind, timezone);
    if (expected !== actual) out.push(`${column}: stored ${actual} != truth ${expected}`);
  }
  return out;
}

/** How one table differs from its truth records, by primary key (the parts `tableMismatches` prints). */
export interface TableComparison {
  name: string;
  /** How many truth records were compared. */
  records: number;
  /** Keys the truth holds twice (a broken check, not a warehouse fault). */
  twiceInTruth: string[];
  /** Truth keys with no stored row. */
  missing: string[];
  /** Stored keys the truth does not have (and `extraOk` does not excuse). */
  extra: string[];
  /** Stored rows that differ from their record: the key and one line per differing field. */
  mismatched: { key: string; fields: string[] }[];
}

/** Compares a whole table with its truth records: same primary keys, and each row equal to its record. */
export function compareTable(check: TruthCheck, rows: readonly Row[], timezone: string): TableComparison {
  const { kinds, key, name } = shapeOf(check.table);
  const columnOf = (field: string) => check.rename?.[field] ?? snakeOf(field);
  const rowKey = (r: Row) => key.map((c) => keyPart(r[c], kinds.get(c) ?? 'text', timezone)).join('|');
  const recordKey = (r: TruthCheck['records'][number]) =>
    key
      .map((c) => {
        if (r.columns && c in r.columns) return keyPart(r.columns[c], kinds.get(c) ?? 'text', timezone);
        const field = Object.keys(r.fields).find((f) => columnOf(f) === c);
        const value = field === undefined ? undefined : r.fields[field];
        return keyPart(value, kinds.get(c) ?? 'text', timezone);
      })
      .join('|');
  const result: TableComparison = {
    name,
    records: check.records.length,
    twiceInTruth: [],
    missing: [],
    extra: [],
    mismatched: [],
  };
  const byKey = new Map(rows.map((r) => [rowKey(r), r]));
  const seen = new Set<string>();
  for (const record of check.records) {
    const k = recordKey(record);
    if (seen.has(k)) result.twiceInTruth.push(k);
    seen.add(k);
    const row = byKey.get(k);
    if (!row) {
      result.missing.push(k);
      continue;
    }
    const fields = recordMismatches(check.table, row, record.fields, timezone, check);
    if (fields.length > 0) result.mismatched.push({ key: k, fields });
  }
  for (const [k, row] of byKey) if (!seen.has(k) && !check.extraOk?.(row)) result.extra.push(k);
  return result;
}

/** `compareTable` as readable lines (truth duplicates, missing, differing, extra); empty when equal. */
export function tableMismatches(check: TruthCheck, rows: readonly Row[], timezone: string): string[] {
  const c = compareTable(check, rows, timezone);
  return [
    ...c.twiceInTruth.map((k) => `${c.name} ${k}: twice in the truth`),
    ...c.missing.map((k) => `${c.name} ${k}: missing`),
    ...c.mismatched.flatMap((m) => m.fields.map((d) => `${c.name} ${m.key}: ${d}`)),
    ...c.extra.map((k) => `${c.name} ${k}: not in truth`),
  ];
}
