import type pg from 'pg';
import { ISO_DATE_TIME } from '../../src/api/records/index.ts';
import { stableJson } from '../../src/sync/normalize.ts';
import { parseDateTime, snakeOf } from '../../src/sync/rows.ts';

const TZ = 'America/Los_Angeles';

/** A truth value and a stored value in one comparable form (dates as instants, numbers as numbers). */
function comparable(value: unknown): string {
  if (value === null || value === undefined) return 'null';
  if (value instanceof Date) return `t:${value.getTime()}`;
  if (typeof value === 'string' && ISO_DATE_TIME.test(value) && value.length > 10) {
    return `t:${parseDateTime(value, TZ)?.getTime()}`;
  }
  if (
    typeof value === 'number' ||
    (typeof value === 'string' && value !== '' && !Number.isNaN(Number(value)) && /^-?\d/.test(value))
  ) {
    return `n:${Number(value)}`;
  }
  if (typeof value === 'object') return `j:${stableJson(value)}`;
  return `s:${String(value)}`;
}

/**
 * Differences between truth records and stored rows: every truth field (except `skip`) against its
 * snake_case column, with type normalisation; plus rows missing or extra. Empty = equal.
 */
export function compareRecords(
  truth: readonly Record<string, unknown>[],
  stored: readonly Record<string, unknown>[],
  keyOf: (r: Record<string, unknown>) => string,
  storedKeyOf: (r: Record<string, unknown>) => string,
  skip: readonly string[] = [],
): string[] {
  const problems: string[] = [];
  const byKey = new Map(stored.map((r) => [storedKeyOf(r), r]));
  const seen = new Set<string>();
  for (const record of truth) {
    const key = keyOf(record);
    seen.add(key);
    const row = byKey.get(key);
    if (!row) {
      problems.push(`missing ${key}`);
      continue;
    }
    for (const [field, value] of Object.entries(record)) {
      if (skip.includes(field)) continue;
      const column = snakeOf(field);
      if (!(column in row)) {
        problems.push(`${key}: no column ${column}`);
        continue;
      }
      // Text keys that arrive null are stored as ''.
      const stored = row[column] === '' && value === null ? null : row[column];
      if (comparable(value) !== comparable(stored)) {
        problems.push(`${key}.${field}: truth ${JSON.stringify(value)} stored ${JSON.stringify(stored)}`);
      }
    }
  }
  for (const key of byKey.keys()) if (!seen.has(key)) problems.push(`extra ${key}`);
  return problems;
}

/** All rows of a fulfillment table matching `where`. */
export async function rowsOf(pool: pg.Pool, table: string, where = 'true', params: unknown[] = []) {
  const res = await pool.query(`SELECT * FROM fulfillment.${table} WHERE ${where}`, params);
  return res.rows as Record<string, unknown>[];
}
