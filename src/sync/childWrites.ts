import type { Queryable } from '../db/queryable.ts';
import { shapeOf, tableInfo } from './columns.ts';
import { type ChildDiff, diffChildren, keyOf, type TableShape } from './diff.ts';
import { loadByKeys } from './store.ts';
import type { ChildEntity, RecordChange, Row } from './types.ts';

/**
 * The child rows a window writes: those of changed parents that carry their children, diffed
 * against the stored children of updated parents (a short read per child table, no transaction).
 */

/** The child rows to write for one child table. */
export interface ChildWrite {
  child: ChildEntity<unknown>;
  diff: ChildDiff;
}

/** Child rows of the changed records, diffed against the stored children of updated parents. */
export async function diffAllChildren<R>(
  db: Queryable,
  childEntities: readonly ChildEntity<R>[],
  parentKey: readonly string[],
  changes: RecordChange<R>[],
  childRows: ReadonlyMap<RecordChange<R>, Row[][]>,
): Promise<ChildWrite[]> {
  const writes: ChildWrite[] = [];
  for (const [i, child] of childEntities.entries()) {
    const shape = shapeOf(child.table, child.key);
    const withChildren = changes.filter((c) => childRows.has(c));
    // Stored children matter only for parents that existed before and carry their children now;
    // a new parent's children are all new, and can only repeat a key among themselves.
    const updated = withChildren.filter((c) => c.kind === 'updated');
    const ofNewParents: Row[] = [];
    for (const change of withChildren) {
      if (change.kind !== 'inserted') continue;
      for (const row of distinctByKey(childRows.get(change)?.[i] ?? [], shape)) ofNewParents.push(row);
    }
    const rows = updated.flatMap((c) => childRows.get(c)?.[i] ?? []);
    const stored = await storedChildren(
      db,
      child as ChildEntity<unknown>,
      parentKey,
      updated.map((c) => c.row),
    );
    const name = tableInfo(child.table).name;
    for (const change of updated) {
      const previous = stored.ofParent(change.row);
      change.previousChildren = { ...change.previousChildren, [name]: previous };
    }
    const diff = diffChildren(rows, stored.rows, shape);
    writes.push({
      child: child as ChildEntity<unknown>,
      diff: { ...diff, inserted: ofNewParents.concat(diff.inserted) },
    });
  }
  return writes;
}

/** The stored rows of one child table under some parents, and a look-up of one parent's. */
export interface StoredChildren {
  rows: Row[];
  /** The stored children of one of the parents (none: an empty list). */
  ofParent(parent: Row): readonly Row[];
}

/**
 * The stored children of `parents` (parent rows, keyed by `parentKey`) in one child table: one
 * short read, no transaction.
 */
export async function storedChildren(
  db: Queryable,
  child: ChildEntity<unknown>,
  parentKey: readonly string[],
  parents: readonly Row[],
): Promise<StoredChildren> {
  const parentShape = { key: child.parentKey, kinds: shapeOf(child.table, child.key).kinds };
  const parentKeyOf = (parent: Row) => {
    const k: Row = {};
    child.parentKey.forEach((column, j) => {
      k[column] = parent[parentKey[j] as string];
    });
    return k;
  };
  const rows = await loadByKeys(db, child.table, child.parentKey, parents.map(parentKeyOf));
  const byParent = new Map<string, Row[]>();
  for (const row of rows) {
    const k = keyOf(row, parentShape);
    const siblings = byParent.get(k);
    if (siblings) siblings.push(row);
    else byParent.set(k, [row]);
  }
  return { rows, ofParent: (parent) => byParent.get(keyOf(parentKeyOf(parent), parentShape)) ?? [] };
}

/** One parent's child rows with a key given twice kept once (the last wins); most have one or two. */
function distinctByKey(rows: readonly Row[], shape: TableShape): readonly Row[] {
  if (rows.length < 2) return rows;
  const byKey = new Map<string, Row>();
  for (const row of rows) byKey.set(keyOf(row, shape), row);
  return byKey.size === rows.length ? rows : [...byKey.values()];
}
