import type { Queryable } from '../db/queryable.ts';
import { type ChildWrite, diffAllChildren } from './childWrites.ts';
import { shapeOf } from './columns.ts';
import { type ChildrenWithheld, withheldWarnings } from './confirmChildren.ts';
import type { DetailFailure, DetailRequest } from './detailRequests.ts';
import { type DetailedWindow, servedRequests } from './detailStage.ts';
import { diffRows, keyOf, type TableShape } from './diff.ts';
import type { RecordChange, Row, RowContext } from './entity.ts';
import { SLICE_RECORDS, yieldToIo } from './eventLoop.ts';
import type { FetchResult, RejectedRecord, WindowWarning } from './fetchResult.ts';
import type { Rejection } from './rejections.ts';
import { keyText, rowProblems } from './rowCheck.ts';
import { loadByKeys } from './store.ts';
import type { StreamDefinition } from './types.ts';
import { findVanished } from './vanished.ts';
import type { Scope, Window } from './window.ts';

export type { ChildWrite } from './childWrites.ts';

/**
 * Everything one window will write, decided before the write transaction opens, from the window as
 * the detail stage left it (detailStage.ts: list records with their details, stored rows read):
 * values checked, rows diffed, children diffed, vanished snapshot rows found. Short reads on the
 * pool only; no upstream call. The lease guarantees no other run writes this stream and scope
 * meanwhile, so what was read stays true until the commit, which checks the lease first.
 */

/** What `commitWindow` writes. */
export interface PreparedWindow<R> {
  /** Parent rows to insert or update (snapshot vanishings included, with `record` undefined). */
  changes: RecordChange<R>[];
  children: ChildWrite[];
  unchanged: number;
  /** Quarantined and repaired records for sync.rejected_records. */
  rejections: Rejection[];
  /** Records quarantined (not stored). */
  quarantined: number;
  repaired: number;
  /** Queued detail requests this window stored the detail of (deleted in the write). */
  served: DetailRequest[];
  /** Detail calls that failed (attempts counted in the write, retried later with backoff). */
  detailFailures: DetailFailure[];
  /** Detail calls made (the list calls are counted by the fetch). */
  apiCalls: number;
  /** Records the detail stage fetched by key (beside the list's). */
  fetchedByKey: number;
  /** A snapshot window whose vanish detection was suspended (a rejected row's key was unreadable). */
  vanishSkipped: boolean;
  /** Records whose omitted children stayed (no second read confirmed them): asked for again. */
  childrenWithheld: ChildrenWithheld[];
  warnings: WindowWarning[];
  /** Keys (see `keyOf`) of the window's records: what its commit may write. */
  keys: ReadonlySet<string>;
}

export interface PrepareArgs<R> {
  db: Queryable;
  stream: StreamDefinition<R, unknown>;
  scope: Scope;
  window: Window;
  ctx: RowContext;
  fetched: FetchResult<R>;
  /** The window through the detail stage. */
  detailed: DetailedWindow<R>;
}

/** Checks and diff of one window through the detail stage; see the file comment. */
export async function prepareWindow<R>(args: PrepareArgs<R>): Promise<PreparedWindow<R>> {
  const { db, stream, ctx, fetched, detailed } = args;
  const entity = stream.entity;
  const { shape, incoming, storedByKey } = detailed;
  const rejected: RejectedRecord[] = [...detailed.rejected];
  const repaired: RejectedRecord[] = [...detailed.repaired];

  const diff = diffRows(
    incoming.map((i) => i.row),
    storedByKey,
    shape,
  );
  const recordByKey = new Map(incoming.map((i) => [i.key, i.record]));
  let changes: RecordChange<R>[] = [
    ...diff.inserted.map((row) => ({
      kind: 'inserted' as const,
      record: recordByKey.get(keyOf(row, shape)),
      row,
      previousRow: undefined,
    })),
    ...diff.updated.map(({ row, previous }) => ({
      kind: 'updated' as const,
      record: recordByKey.get(keyOf(row, shape)),
      row,
      previousRow: previous,
    })),
  ];

  if (detailed.withoutRaw) await readPreviousRecords(db, entity, shape, changes);

  // Only what will be written can fail the write: check those rows (parents and children).
  const childEntities = entity.children ?? [];
  const childShapes = childEntities.map((child) => shapeOf(child.table, child.key));
  const childRows = new Map<RecordChange<R>, Row[][]>();
  const writable: RecordChange<R>[] = [];
  for (const [n, change] of changes.entries()) {
    if (n > 0 && n % SLICE_RECORDS === 0) await yieldToIo();
    const { perChild, problems } = rowsOfChange(change, entity, shape, childShapes, ctx);
    if (problems.length === 0) {
      if (perChild) childRows.set(change, perChild);
      writable.push(change);
      continue;
    }
    rejected.push({
      index: -1,
      reason: [...new Set(problems)].join('; '),
      raw: change.record,
      key: keyText(change.row, entity.key),
    });
  }
  changes = writable;

  const children = await diffAllChildren(db, childEntities, entity.key, changes, childRows);

  const vanish = await findVanished(args, shape, incoming, rejected);
  // A loop, not a spread: a snapshot can lose more rows than a call may take arguments.
  for (const change of vanish.changes) changes.push(change);

  return {
    changes,
    children,
    unchanged: diff.unchanged.length,
    rejections: [
      ...rejected.map((r) => ({ kind: 'quarantined' as const, key: r.key, reason: r.reason, raw: r.raw })),
      ...repaired.map((r) => ({ kind: 'repaired' as const, key: r.key, reason: r.reason, raw: r.raw })),
    ],
    quarantined: rejected.length,
    repaired: repaired.length,
    served: [...servedRequests(stream.details, incoming, rejected, detailed.due), ...detailed.gone],
    detailFailures: detailed.failures,
    apiCalls: detailed.apiCalls,
    fetchedByKey: detailed.fetchedByKey,
    vanishSkipped: vanish.skipped,
    childrenWithheld: detailed.childrenWithheld,
    warnings: [
      ...(fetched.warnings ?? []),
      ...vanish.warnings,
      ...withheldWarnings(detailed.childrenWithheld),
    ],
    keys: detailed.keys,
  };
}

/**
 * The child rows one change writes (undefined when its record does not carry children: a failed
 * detail leaves the stored ones alone), and the reasons its rows cannot be stored, if any.
 */
function rowsOfChange<R>(
  change: RecordChange<R>,
  entity: StreamDefinition<R, unknown>['entity'],
  shape: TableShape,
  childShapes: readonly TableShape[],
  ctx: RowContext,
): { perChild: Row[][] | undefined; problems: string[] } {
  const problems = rowProblems(change.row, shape);
  const record = change.record;
  if (record === undefined || !(entity.hasChildren?.(record) ?? true))
    return { perChild: undefined, problems };
  let perChild: Row[][];
  try {
    perChild = (entity.children ?? []).map((child) => child.rows(record, ctx));
  } catch (error) {
    problems.push(`children could not be built: ${(error as Error).message}`);
    return { perChild: undefined, problems };
  }
  perChild.forEach((rows, i) => {
    const childShape = childShapes[i] as TableShape;
    for (const row of rows) problems.push(...rowProblems(row, childShape).map((p) => `child ${p}`));
  });
  return { perChild, problems };
}

/**
 * The stored record (`raw`) of each updated row, read only for those: events and children compare
 * against it, while telling unchanged rows apart needed only the content hash.
 */
async function readPreviousRecords<R>(
  db: Queryable,
  entity: StreamDefinition<R, unknown>['entity'],
  shape: TableShape,
  changes: RecordChange<R>[],
): Promise<void> {
  const updated = changes.filter((c) => c.kind === 'updated' && c.previousRow);
  if (updated.length === 0) return;
  const rows = await loadByKeys(
    db,
    entity.table,
    entity.key,
    updated.map((c) => c.row),
    [...entity.key, 'raw'],
  );
  const rawByKey = new Map(rows.map((r) => [keyOf(r, shape), r.raw]));
  for (const change of updated) {
    const previous = change.previousRow as Row;
    previous.raw = rawByKey.get(keyOf(previous, shape)) ?? null;
  }
}
