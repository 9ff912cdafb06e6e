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
    const parentKeyOf = (p: Row) => {
      const k: Row = {};
      child.parentKey.forEach((column, j) => {
        k[column] = p[parentKey[j] as string];
      });
      return k;
    };
    const stored = await loadByKeys(
      db,
      child.table,
      child.parentKey,
      updated.map((c) => parentKeyOf(c.row)),
    );
    const parentShape = { key: child.parentKey, kinds: shape.kinds };
    const storedByParent = new Map<string, Row[]>();
    for (const row of stored) {
      const k = keyOf(row, parentShape);
      const siblings = storedByParent.get(k);
      if (siblings) siblings.push(row);
      else storedByParent.set(k, [row]);
    }
    const name = tableInfo(child.table).name;
    for (const change of updated) {
      const previous = storedByParent.get(keyOf(parentKeyOf(change.row), parentShape)) ?? [];
      change.previousChildren = { ...change.previousChildren, [name]: previous };
    }
    const diff = diffChildren(rows, stored, shape);
    writes.push({
      child: child as ChildEntity<unknown>,
      diff: { ...diff, inserted: ofNewParents.concat(diff.inserted) },
    });
  }
  return writes;
}

/** One parent's child rows with a key given twice kept once (the last wins); most have one or two. */
function distinctByKey(rows: readonly Row[], shape: TableShape): readonly Row[] {
  if (rows.length < 2) return rows;
  const byKey = new Map<string, Row>();
  for (const row of rows) byKey.set(keyOf(row, shape), row);
  return byKey.size === rows.length ? rows : [...byKey.values()];
}
