import type { Queryable } from '../db/queryable.ts';
import { shapeOf } from './columns.ts';
import { keyOf, rowsEqual, type TableShape } from './diff.ts';
import type { RecordChange, RecordEntity, Row, RowContext } from './entity.ts';
import type { FetchResult, RejectedRecord, WindowWarning } from './fetchResult.ts';
import { buildIncomingInSlices, type Incoming, rejectedKey, withContentHash } from './incoming.ts';
import type { Absent } from './shrinkRule.ts';
import { countWhere, loadMissing } from './store.ts';
import type { StreamDefinition } from './types.ts';
import type { Scope, Window } from './window.ts';

/** What vanish detection looks at: the window read, and where to read the stored rows. */
export interface VanishArgs<R> {
  db: Queryable;
  stream: StreamDefinition<R, unknown>;
  scope: Scope;
  window: Window;
  ctx: RowContext;
  /** The window's answer: its `shrink` says which absences were confirmed (confirmShrink.ts). */
  fetched?: Pick<FetchResult<R>, 'shrink'>;
}

/**
 * The keys a snapshot answer names: its rows, and its rejected rows whose key can be read (they
 * are not gone, only unreadable). Undefined when a rejected row's key cannot be read: any stored
 * row might be it, so nothing can be taken for vanished.
 */
function presentKeys<R>(
  entity: RecordEntity<R>,
  rows: readonly Row[],
  rejected: readonly RejectedRecord[],
  ctx: RowContext,
): { present: Row[]; unreadable: number } {
  const present: Row[] = [...rows];
  let unreadable = 0;
  for (const r of rejected) {
    const key = rejectedKey(entity, r.raw, ctx);
    if (key && entity.key.every((c) => key[c] !== undefined)) present.push(key);
    else unreadable += 1;
  }
  return { present, unreadable };
}

/**
 * Snapshot windows: stored rows the snapshot no longer returns are handed to `vanished`, those whose
 * absence the engine confirmed only (`fetched.shrink`: an unconfirmed large shrink vanishes
 * nothing). A rejected row whose key can be read protects only that key; one whose key cannot be
 * read suspends vanish detection for this snapshot (with a warning), since any stored row might be it.
 */
export async function findVanished<R>(
  args: VanishArgs<R>,
  shape: TableShape,
  incoming: readonly Incoming<R>[],
  rejected: readonly RejectedRecord[],
): Promise<{ changes: RecordChange<R>[]; skipped: boolean; warnings: WindowWarning[] }> {
  const { stream, scope, window, ctx, db } = args;
  const snapshot = stream.entity.snapshot;
  if (!snapshot || window.kind !== 'snapshot') return { changes: [], skipped: false, warnings: [] };
  const shrink = args.fetched?.shrink;
  if (shrink?.withheld) return { changes: [], skipped: false, warnings: [] };
  const { present, unreadable } = presentKeys(
    stream.entity,
    incoming.map((i) => i.row),
    rejected,
    ctx,
  );
  if (unreadable > 0) {
    return {
      changes: [],
      skipped: true,
      warnings: [
        {
          message: `vanish detection skipped: ${unreadable} rejected row(s) whose key cannot be read; the next snapshot without them zeroes rows that truly vanished`,
          data: { unreadableRejected: unreadable },
        },
      ],
    };
  }
  const changes: RecordChange<R>[] = [];
  const missing = await loadMissing(
    db,
    stream.entity.table,
    snapshot.where(scope, window),
    stream.entity.key,
    present,
    snapshot.goneColumn,
  );
  for (const row of missing) {
    if (shrink && !shrink.gone.has(keyOf(row, shape))) continue;
    const vanished = snapshot.vanished(row, ctx);
    const next = vanished && withContentHash(vanished, shape);
    if (next && !rowsEqual(row, next, shape))
      changes.push({ kind: 'updated', record: undefined, row: next, previousRow: row });
  }
  return { changes, skipped: false, warnings: [] };
}

/**
 * What a snapshot answer would vanish, before anything is written (confirmShrink.ts): the keys of
 * the stored rows of its part it omits, out of how many the part holds. Undefined for windows that
 * vanish nothing (not a snapshot, or a rejected row whose key cannot be read).
 */
export async function snapshotAbsence<R>(
  args: Omit<VanishArgs<R>, 'fetched'>,
  result: Pick<FetchResult<R>, 'records' | 'rejected'>,
): Promise<Absent | undefined> {
  const { stream, scope, window, ctx, db } = args;
  const snapshot = stream.entity.snapshot;
  if (!snapshot || window.kind !== 'snapshot') return undefined;
  const shape = shapeOf(stream.entity.table, stream.entity.key);
  const built = await buildIncomingInSlices(result.records, stream.entity, shape, ctx);
  const { present, unreadable } = presentKeys(
    stream.entity,
    built.incoming.map((i) => i.row),
    [...result.rejected, ...built.rejected],
    ctx,
  );
  if (unreadable > 0) return undefined;
  const where = snapshot.where(scope, window);
  const table = stream.entity.table;
  const missing = await loadMissing(db, table, where, stream.entity.key, present, snapshot.goneColumn, [
    ...stream.entity.key,
  ]);
  return {
    held: await countWhere(db, table, where, snapshot.goneColumn),
    missing: missing.map((row) => keyOf(row, shape)),
  };
}
