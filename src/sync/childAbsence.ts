import { tableInfo } from './columns.ts';
import { keyOf, type TableShape } from './diff.ts';
import type { ShrinkPolicy } from './shrinkRule.ts';
import type { ChildEntity, Row, RowContext } from './types.ts';

/**
 * Pure: which stored children of one record a detail answer omits. Writing that answer would
 * delete them (an order's lines, an IN's notes, a product's selling infos) or, for an order's
 * active hold, announce its release; confirmChildren.ts reads the detail again before it does.
 */

/** What one answer would take away: `missing` (table-qualified child keys) of `held` stored children. */
export interface ChildAbsence {
  held: number;
  missing: Set<string>;
}

/**
 * The shrink rule's threshold for one record's children (shrinkRule.ts): any stored child omitted.
 * A child set is a handful of rows, far below FULFILLMENT_VANISH_CONFIRM_MIN_ROWS, where the rule
 * as set for a scope would confirm only an answer omitting every child: an order with two active
 * holds answered with one would announce a release unconfirmed. A child lost is a row deleted or a
 * hold announced released; one record's second read costs one call; and answers that drop
 * children are rare (most leave them as they were: no extra call). The further reads and their
 * pause are the scope's settings.
 */
export function childSetPolicy(settings: Pick<ShrinkPolicy, 'rereads'>): ShrinkPolicy {
  return { share: 0, minRows: 1, rereads: settings.rereads };
}

/**
 * The stored children (`stored[i]`: the record's rows in `children[i]`'s table) that the rows built
 * from `record` do not name. Throws when the rows cannot be built (the record is then rejected by
 * its preparation, and its stored children stay).
 */
export function childAbsence<R>(
  children: readonly ChildEntity<R>[],
  shapes: readonly TableShape[],
  record: R,
  ctx: RowContext,
  stored: readonly (readonly Row[])[],
): ChildAbsence {
  const absence: ChildAbsence = { held: 0, missing: new Set() };
  children.forEach((child, i) => {
    const rows = stored[i] ?? [];
    if (rows.length === 0) return;
    const shape = shapes[i] as TableShape;
    const answered = new Set(child.rows(record, ctx).map((row) => keyOf(row, shape)));
    const table = tableInfo(child.table).name;
    absence.held += rows.length;
    for (const row of rows) {
      const key = keyOf(row, shape);
      if (!answered.has(key)) absence.missing.add(`${table}\u0002${key}`);
    }
  });
  return absence;
}
