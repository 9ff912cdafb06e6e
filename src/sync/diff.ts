import { canonical } from './normalize.ts';
import type { Row } from './types.ts';
import type { ValueKind } from './valueKind.ts';

/**
 * Pure change detection: incoming rows against stored rows, compared as typed values. Nothing
 * here touches the database; `store.ts` loads and writes, `prepareWindow.ts` glues them.
 */

/** Key columns and the comparison kind of every column of one table. */
export interface TableShape {
  key: readonly string[];
  kinds: ReadonlyMap<string, ValueKind>;
  /**
   * The column whose hash stands for `raw` (`content_hash`), when the table has one: `raw` is then
   * compared through it, and need not be read back to tell an unchanged record.
   */
  hashColumn?: string;
}

/** The column the engine keeps a hash of `raw` in, where a table has it. */
export const CONTENT_HASH = 'content_hash';

/**
 * Columns the engine stamps itself: never compared (a write or fetch time is not a change) and
 * never read from a record; written only with a row that changed.
 */
export const ENGINE_COLUMNS: ReadonlySet<string> = new Set([
  'synced_at',
  'last_seen_at',
  'detail_fetched_at',
]);

/** Canonical string of a row's key (equal keys -> equal strings, whatever the driver types). */
export function keyOf(row: Row, shape: TableShape, columns: readonly string[] = shape.key): string {
  let out = '';
  for (const column of columns)
    out += `${canonical(row[column], shape.kinds.get(column) ?? 'text') ?? '\u0000'}\u0001`;
  return out;
}

/** Whether every column the incoming row carries equals the stored value. */
export function rowsEqual(stored: Row, incoming: Row, shape: TableShape): boolean {
  for (const column of Object.keys(incoming)) {
    if (ENGINE_COLUMNS.has(column)) continue;
    if (column === 'raw' && shape.hashColumn) continue;
    const kind = shape.kinds.get(column) ?? 'text';
    if (canonical(stored[column], kind) !== canonical(incoming[column], kind)) return false;
  }
  return true;
}

/** Keeps the last row per key (overlapping windows and repeated answers), in first-seen order. */
export function dedupeByKey<T>(items: readonly T[], keyFn: (item: T) => string): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) {
    const k = keyFn(item);
    if (byKey.has(k)) byKey.delete(k);
    byKey.set(k, item);
  }
  return [...byKey.values()];
}

/** Classification of one table's incoming rows. */
export interface RowDiff {
  inserted: Row[];
  updated: Array<{ row: Row; previous: Row }>;
  unchanged: Row[];
}

/** Classifies incoming rows (already de-duplicated) against stored rows keyed by `keyOf`. */
export function diffRows(
  incoming: readonly Row[],
  stored: ReadonlyMap<string, Row>,
  shape: TableShape,
): RowDiff {
  const result: RowDiff = { inserted: [], updated: [], unchanged: [] };
  for (const row of incoming) {
    const previous = stored.get(keyOf(row, shape));
    if (!previous) result.inserted.push(row);
    else if (rowsEqual(previous, row, shape)) result.unchanged.push(row);
    else result.updated.push({ row, previous });
  }
  return result;
}

/** Child rows of changed parents: what to insert, update and delete so the stored set equals the new one. */
export interface ChildDiff {
  inserted: Row[];
  updated: Row[];
  deleted: Row[];
}

/**
 * Replaces the children of changed parents as a set: `incoming` are all new child rows of those
 * parents (a key given twice: the last row wins), `stored` all stored child rows of the same
 * parents. Equal rows are left alone. Each row's key is computed once: children are most of the
 * rows a window writes.
 */
export function diffChildren(incoming: readonly Row[], stored: readonly Row[], shape: TableShape): ChildDiff {
  const byKey = new Map<string, Row>();
  for (const row of incoming) byKey.set(keyOf(row, shape), row);
  if (stored.length === 0) return { inserted: [...byKey.values()], updated: [], deleted: [] };
  const storedByKey = new Map<string, Row>();
  for (const row of stored) storedByKey.set(keyOf(row, shape), row);
  const result: ChildDiff = { inserted: [], updated: [], deleted: [] };
  for (const [k, row] of byKey) {
    const previous = storedByKey.get(k);
    if (!previous) result.inserted.push(row);
    else if (!rowsEqual(previous, row, shape)) result.updated.push(row);
  }
  for (const [k, row] of storedByKey) if (!byKey.has(k)) result.deleted.push(row);
  return result;
}
