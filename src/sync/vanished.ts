import type { Queryable } from '../db/queryable.ts';
import { rowsEqual, type TableShape } from './diff.ts';
import { type Incoming, rejectedKey, withContentHash } from './incoming.ts';
import { loadMissing } from './store.ts';
import type {
  RecordChange,
  RejectedRecord,
  Row,
  RowContext,
  Scope,
  StreamDefinition,
  Window,
  WindowWarning,
} from './types.ts';

/** What vanish detection looks at: the window read, and where to read the stored rows. */
export interface VanishArgs<R> {
  db: Queryable;
  stream: StreamDefinition<R, unknown>;
  scope: Scope;
  window: Window;
  ctx: RowContext;
}

/**
 * Snapshot windows: stored rows the snapshot no longer returns are handed to `vanished`. A rejected
 * row whose key can be read protects only that key; one whose key cannot be read suspends vanish
 * detection for this snapshot (with a warning), since any stored row might be it.
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
  const presentKeys: Row[] = incoming.map((i) => i.row);
  let unreadable = 0;
  for (const r of rejected) {
    const key = rejectedKey(stream.entity, r.raw, ctx);
    if (key && stream.entity.key.every((c) => key[c] !== undefined)) presentKeys.push(key);
    else unreadable += 1;
  }
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
    presentKeys,
    snapshot.goneColumn,
  );
  for (const row of missing) {
    const vanished = snapshot.vanished(row, ctx);
    const next = vanished && withContentHash(vanished, shape);
    if (next && !rowsEqual(row, next, shape))
      changes.push({ kind: 'updated', record: undefined, row: next, previousRow: row });
  }
  return { changes, skipped: false, warnings: [] };
}
