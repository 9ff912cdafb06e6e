import { INT32_MAX, INT32_MIN } from '../api/records/primitives.ts';
import type { TableShape } from './diff.ts';
import type { Row } from './types.ts';

/**
 * Pure checks that a row can be stored, so that one bad upstream value is quarantined with its
 * record instead of failing the whole window's transaction run after run. The client has already
 * repaired text Postgres cannot hold (NUL, lone surrogates) and rejected absurdly nested records;
 * these checks are what the column types add: integer ranges, finite numbers, valid instants, and
 * key sizes a btree index accepts.
 */

/**
 * Bytes of all key columns of one row together. A btree index entry must fit a third of a page
 * (about 2,700 bytes); 2,000 leaves room for the tuple header and the other key columns' overhead.
 */
export const MAX_KEY_BYTES = 2000;

/** Problems of a text value Postgres cannot store. */
function textProblem(value: string): string | undefined {
  // One scan finds the rare suspects; only those are looked at closely.
  if (!SUSPECT_TEXT.test(value)) return undefined;
  if (value.includes('\u0000')) return 'holds a NUL character';
  if (!value.isWellFormed()) return 'holds a lone UTF-16 surrogate';
  return undefined;
}

/** A NUL or any surrogate (paired ones are fine, but rare enough to check closely). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding NUL is the point.
const SUSPECT_TEXT = /[\u0000\uD800-\uDFFF]/;

/** Why one column value cannot be stored in a column of this kind, or undefined. */
function valueProblem(value: unknown, kind: string): string | undefined {
  if (value === null || value === undefined) return undefined;
  switch (kind) {
    case 'int': {
      const n = typeof value === 'number' ? value : Number(value);
      if (!Number.isInteger(n)) return `is not a whole number (${String(value).slice(0, 40)})`;
      if (n < INT32_MIN || n > INT32_MAX) return `is outside the 32-bit integer range (${n})`;
      return undefined;
    }
    case 'bigint': {
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isSafeInteger(n)
        ? undefined
        : `is not a whole number in range (${String(value).slice(0, 40)})`;
    }
    case 'numeric':
    case 'float': {
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(n) ? undefined : `is not a finite number (${String(value).slice(0, 40)})`;
    }
    case 'timestamp':
      return value instanceof Date && Number.isNaN(value.getTime()) ? 'is not a valid date-time' : undefined;
    case 'text':
      return typeof value === 'string' ? textProblem(value) : undefined;
    default:
      return undefined;
  }
}

/** Problems with the key columns of a row (checked for every incoming row, before any lookup). */
export function keyProblems(row: Row, shape: TableShape): string[] {
  const problems: string[] = [];
  let bytes = 0;
  for (const column of shape.key) {
    const value = row[column];
    const problem = valueProblem(value, shape.kinds.get(column) ?? 'text');
    if (problem) problems.push(`key ${column} ${problem}`);
    if (typeof value === 'string') bytes += Buffer.byteLength(value);
  }
  if (bytes > MAX_KEY_BYTES)
    problems.push(`key is ${bytes} bytes long (at most ${MAX_KEY_BYTES} can be indexed)`);
  return problems;
}

/** Problems with any column of a row about to be written (key columns were checked already). */
export function rowProblems(row: Row, shape: TableShape): string[] {
  const problems: string[] = [];
  for (const column in row) {
    const problem = valueProblem(row[column], shape.kinds.get(column) ?? 'text');
    if (problem) problems.push(`${column} ${problem}`);
  }
  return problems;
}

/** The key of a row as text for `sync.rejected_records.record_key` (long keys shortened). */
export function keyText(row: Row, key: readonly string[]): string {
  const text = key.map((c) => (row[c] === null || row[c] === undefined ? '' : String(row[c]))).join('/');
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
