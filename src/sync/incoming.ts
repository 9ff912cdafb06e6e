import { hash } from 'node:crypto';
import { dedupeByKey, keyOf, type TableShape } from './diff.ts';
import { SLICE_RECORDS, yieldToIo } from './eventLoop.ts';
import { keyProblems, keyText } from './rowCheck.ts';
import { camelOf } from './rows.ts';
import type { RecordEntity, RejectedRecord, Row, RowContext } from './types.ts';

/** One record of a window with its parent row and key (canonical key string, see `keyOf`). */
export interface Incoming<R> {
  record: R;
  row: Row;
  key: string;
}

/**
 * Pure: the parent rows of a window's records. A record whose row cannot be built (an unparseable
 * date-time) or whose key cannot be stored is rejected with the reason; the rest are de-duplicated
 * by key (overlapping windows and repeated answers: the last wins).
 */
export function buildIncoming<R>(
  records: readonly R[],
  entity: RecordEntity<R>,
  shape: TableShape,
  ctx: RowContext,
): { incoming: Incoming<R>[]; rejected: RejectedRecord[] } {
  const built: Incoming<R>[] = [];
  const rejected: RejectedRecord[] = [];
  records.forEach((record, index) => {
    const one = incomingOf(record, index, entity, shape, ctx);
    if ('reason' in one) rejected.push(one);
    else built.push(one);
  });
  return { incoming: dedupeByKey(built, (i) => i.key), rejected };
}

/**
 * `buildIncoming` with pending I/O run every `SLICE_RECORDS` records (eventLoop.ts): the same
 * answer.
 */
export async function buildIncomingInSlices<R>(
  records: readonly R[],
  entity: RecordEntity<R>,
  shape: TableShape,
  ctx: RowContext,
): Promise<{ incoming: Incoming<R>[]; rejected: RejectedRecord[] }> {
  const built: Incoming<R>[] = [];
  const rejected: RejectedRecord[] = [];
  for (const [index, record] of records.entries()) {
    if (index > 0 && index % SLICE_RECORDS === 0) await yieldToIo();
    const one = incomingOf(record, index, entity, shape, ctx);
    if ('reason' in one) rejected.push(one);
    else built.push(one);
  }
  return { incoming: dedupeByKey(built, (i) => i.key), rejected };
}

/** One record's parent row, content hash and key, or why it is rejected. */
function incomingOf<R>(
  record: R,
  index: number,
  entity: RecordEntity<R>,
  shape: TableShape,
  ctx: RowContext,
): Incoming<R> | RejectedRecord {
  let row: Row;
  try {
    row = entity.row(record, ctx);
  } catch (error) {
    return {
      index,
      reason: `row could not be built: ${(error as Error).message}`,
      raw: record,
      key: rejectedKeyText(entity, record, ctx),
    };
  }
  withContentHash(row, shape);
  const problems = keyProblems(row, shape);
  if (problems.length > 0)
    return { index, reason: problems.join('; '), raw: record, key: keyText(row, entity.key) };
  return { record, row, key: keyOf(row, shape) };
}

/** The key text of a record that could not be mapped, when the stream can read it from the raw form. */
export function rejectedKeyText<R>(
  entity: RecordEntity<R>,
  raw: unknown,
  ctx: RowContext,
): string | undefined {
  const key = rejectedKey(entity, raw, ctx);
  return key ? keyText(key, entity.key) : undefined;
}

/**
 * The key columns of a rejected record's raw form, or undefined when unreadable: the stream's own
 * reading if it has one, else each key column from the field of the same name (at the top or in
 * `header`), the scope's id for the scope column.
 */
export function rejectedKey<R>(entity: RecordEntity<R>, raw: unknown, ctx: RowContext): Row | undefined {
  try {
    if (entity.keyOfRejected) return entity.keyOfRejected(raw, ctx);
    if (!raw || typeof raw !== 'object') return undefined;
    const record = raw as Record<string, unknown>;
    const header = (record.header && typeof record.header === 'object' ? record.header : {}) as Record<
      string,
      unknown
    >;
    const key: Row = {};
    for (const column of entity.key) {
      const field = camelOf(column);
      const value = record[field] ?? header[field] ?? (SCOPE_COLUMNS.has(column) ? ctx.scope.id : undefined);
      if (typeof value !== 'string' && typeof value !== 'number') return undefined;
      key[column] = value;
    }
    return key;
  } catch {
    return undefined;
  }
}

/** Key columns that name the scope (a supplier id or an account number). */
const SCOPE_COLUMNS = new Set(['supplier_id', 'account_number']);

/**
 * Sets the row's content hash (a table with one keeps the SHA-1 of `raw`'s JSON), so the diff
 * compares that instead of the whole record; every row the engine builds or changes goes through
 * here. Plain JSON.stringify is enough: records come out of their schemas with their members in
 * one order, and a different order costs one rewrite, never a missed change. Answers the row.
 */
export function withContentHash(row: Row, shape: TableShape): Row {
  if (!shape.hashColumn || !('raw' in row)) return row;
  const json = JSON.stringify(row.raw ?? null);
  row[shape.hashColumn] = hash('sha1', json);
  // The text just hashed is also what COPY sends for `raw`: not serialised twice per new row. A
  // symbol, so it is no column and no JSON member.
  (row as Record<symbol, unknown>)[RAW_JSON] = json;
  return row;
}

const RAW_JSON = Symbol('raw as JSON');

/** The JSON text of `row.raw` as `withContentHash` serialised it, if it did. */
export function rawJsonOf(row: Row): string | undefined {
  const json = (row as Record<symbol, unknown>)[RAW_JSON];
  return typeof json === 'string' ? json : undefined;
}
