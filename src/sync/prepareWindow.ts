import type { Logger } from 'pino';
import type { Queryable } from '../db/queryable.ts';
import { shapeOf, tableInfo } from './columns.ts';
import { type DetailFailure, type DetailRequest, type DueRequests, dueDetailRequests } from './detailRequests.ts';
import { type ChildDiff, diffChildren, diffRows, keyOf, rowsEqual, type TableShape } from './diff.ts';
import { SLICE_RECORDS, yieldToIo } from './eventLoop.ts';
import {
  buildIncomingInSlices,
  type Incoming,
  rejectedKey,
  rejectedKeyText,
  withContentHash,
} from './incoming.ts';
import type { Rejection } from './rejections.ts';
import { keyProblems, keyText, rowProblems } from './rowCheck.ts';
import { loadByKeys, loadMissing } from './store.ts';
import type {
  ChildEntity,
  FetchResult,
  RecordChange,
  RejectedRecord,
  Row,
  RowContext,
  Scope,
  StreamDefinition,
  Window,
  WindowWarning,
} from './types.ts';

/**
 * Everything one window will write, decided before the write transaction opens: detail calls made,
 * stored rows read (short queries, no transaction, no held client), values checked, rows diffed.
 * The lease guarantees no other run writes this stream and scope meanwhile, so what was read stays
 * true until the commit, which checks the lease first.
 */

/** The child rows to write for one child table. */
export interface ChildWrite {
  child: ChildEntity<unknown>;
  diff: ChildDiff;
}

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
  /** Detail calls made here (the list calls are counted by the fetch). */
  apiCalls: number;
  /** A snapshot window whose vanish detection was suspended (a rejected row's key was unreadable). */
  vanishSkipped: boolean;
  warnings: WindowWarning[];
  /** Keys (see `keyOf`) of the window's records: what its commit may write. */
  keys: ReadonlySet<string>;
}

export interface PrepareArgs<R, C> {
  db: Queryable;
  client: C;
  stream: StreamDefinition<R, C>;
  scope: Scope;
  window: Window;
  ctx: RowContext;
  fetched: FetchResult<R>;
  /** Due requests of the stream's detail queue, read before the fetch. */
  due: DueRequests;
  logger: Logger;
  /**
   * The previous window's commit, still running (windowPipeline.ts): the stored rows are read only
   * once it has settled if this window holds any of the keys it writes; with none, it cannot change
   * what is read here (the stream's preparation reads rows by their keys only).
   */
  after?: { committed: Promise<unknown>; keys: ReadonlySet<string> };
}

/** Detail calls, reads and diff of one fetched window; see the file comment. */
export async function prepareWindow<R, C>(args: PrepareArgs<R, C>): Promise<PreparedWindow<R>> {
  const { db, stream, ctx, fetched } = args;
  const entity = stream.entity;
  const shape = shapeOf(entity.table, entity.key);
  const built = await buildIncomingInSlices(fetched.records, entity, shape, ctx);
  const named = (r: RejectedRecord) =>
    r.key !== undefined ? r : { ...r, key: rejectedKeyText(entity, r.raw, ctx) };
  const rejected: RejectedRecord[] = [...fetched.rejected.map(named), ...built.rejected];
  const repaired: RejectedRecord[] = (fetched.repaired ?? []).map(named);
  let incoming = built.incoming;
  const keys = new Set(incoming.map((i) => i.key));
  const after = args.after;
  if (after && incoming.some((i) => after.keys.has(i.key))) await after.committed;

  // With a content hash, the stored records themselves need not be read to tell the unchanged.
  const withoutRaw = shape.hashColumn
    ? [...tableInfo(entity.table).types.keys()].filter((c) => c !== 'raw')
    : undefined;
  const stored = await loadByKeys(
    db,
    entity.table,
    entity.key,
    incoming.map((i) => i.row),
    withoutRaw,
  );
  const storedByKey = new Map<string, Row>();
  for (const row of stored) storedByKey.set(keyOf(row, shape), row);

  const due = await dueOfListed(args, incoming);
  const details = await fetchDetails(args, incoming, storedByKey, shape, due);
  incoming = details.incoming;
  rejected.push(...details.rejected);
  repaired.push(...details.repaired);

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

  if (withoutRaw) await readPreviousRecords(db, entity, shape, changes);

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

  const served = servedRequests(stream, incoming, rejected, due);

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
    served,
    detailFailures: [...(fetched.detailFailures ?? []), ...details.failures],
    apiCalls: details.apiCalls,
    vanishSkipped: vanish.skipped,
    warnings: [...(fetched.warnings ?? []), ...vanish.warnings],
    keys,
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
 * Detail calls for the records that need them: changed list rows, records the stream always wants
 * detailed (e.g. a daily refresh), and records with a due detail request. A failed detail leaves
 * the list record as it is (its list columns still land; its stored children and detail columns
 * are untouched) and is retried later through the detail queue.
 */
async function fetchDetails<R, C>(
  args: PrepareArgs<R, C>,
  incoming: Incoming<R>[],
  storedByKey: ReadonlyMap<string, Row>,
  shape: TableShape,
  due: DueRequests,
): Promise<{
  incoming: Incoming<R>[];
  rejected: RejectedRecord[];
  repaired: RejectedRecord[];
  failures: DetailFailure[];
  apiCalls: number;
}> {
  const { stream, client, scope, window, ctx } = args;
  const spec = stream.details;
  const out = {
    incoming,
    rejected: [] as RejectedRecord[],
    repaired: [] as RejectedRecord[],
    failures: [] as DetailFailure[],
    apiCalls: 0,
  };
  if (!spec) return out;
  const queue = stream.detailQueue;
  const dueKeys = new Set(due.requests.map((d) => d.recordKey));
  const needs = (i: Incoming<R>) => {
    if (spec.has(i.record)) return false;
    const stored = storedByKey.get(i.key);
    if (!stored || !rowsEqual(stored, i.row, shape)) return true;
    return (
      spec.wanted?.(i.record, window) === true || (queue !== undefined && dueKeys.has(queue.key(i.record)))
    );
  };
  const result: Incoming<R>[] = [];
  for (const item of incoming) {
    if (!needs(item)) {
      result.push(item);
      continue;
    }
    const answer = await spec.fetch({ client, scope, record: item.record });
    out.apiCalls += 1;
    if ('failure' in answer) {
      out.failures.push({ recordKey: queue ? queue.key(item.record) : item.key, reason: answer.failure });
      result.push(item);
      continue;
    }
    out.repaired.push(...(answer.repaired ?? []));
    try {
      const row = withContentHash(stream.entity.row(answer.record, ctx), shape);
      const problems = keyProblems(row, shape);
      if (problems.length > 0) throw new Error(problems.join('; '));
      result.push({ record: answer.record, row, key: keyOf(row, shape) });
    } catch (error) {
      out.rejected.push({
        index: -1,
        reason: `detail could not be mapped: ${(error as Error).message}`,
        raw: answer.record,
        key: keyText(item.row, stream.entity.key),
      });
      result.push(item);
    }
  }
  out.incoming = result;
  return out;
}

/**
 * The due requests a window with detail calls serves: those read before its fetch (at most the
 * queue's limit, oldest first), and those due for any record it lists without its detail, so
 * requests of records no listing returns (a delisted product) never crowd out the listed ones.
 */
async function dueOfListed<R, C>(args: PrepareArgs<R, C>, incoming: readonly Incoming<R>[]): Promise<DueRequests> {
  const { stream, due } = args;
  const queue = stream.detailQueue;
  const spec = stream.details;
  if (!queue || !spec) return due;
  const known = new Set(due.requests.map((d) => d.recordKey));
  const keys = new Set<string>();
  for (const i of incoming) {
    const key = queue.key(i.record);
    if (!spec.has(i.record) && !known.has(key)) keys.add(key);
  }
  if (keys.size === 0) return due;
  const more = await dueDetailRequests(args.db, stream.name, args.scope.id, args.ctx.now, keys.size, [...keys]);
  // The earlier read time: a record stored with its detail serves only requests not named since.
  return { requests: [...due.requests, ...more.requests], readAt: due.readAt };
}

/** Child rows of the changed records, diffed against the stored children of updated parents. */
async function diffAllChildren<R>(
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

/**
 * Snapshot windows: stored rows the snapshot no longer returns are handed to `vanished`. A rejected
 * row whose key can be read protects only that key; one whose key cannot be read suspends vanish
 * detection for this snapshot (with a warning), since any stored row might be it.
 */
async function findVanished<R, C>(
  args: PrepareArgs<R, C>,
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

/**
 * The detail requests this window answers: every record stored with its detail (`details.has`, or
 * any record of a stream without detail calls, e.g. orders) and every record quarantined (asking
 * again cannot help until it changes). Requests named again after the due list was read survive.
 */
function servedRequests<R, C>(
  stream: StreamDefinition<R, C>,
  incoming: readonly Incoming<R>[],
  rejected: readonly RejectedRecord[],
  due: DueRequests,
): DetailRequest[] {
  const queue = stream.detailQueue;
  if (!queue) return [];
  const keys = new Set<string>();
  for (const i of incoming)
    if (!stream.details || stream.details.has(i.record)) keys.add(queue.key(i.record));
  for (const r of rejected) {
    if (r.raw === undefined || r.raw === null) continue;
    try {
      const key: unknown = queue.key(r.raw as R);
      if (typeof key === 'string' && key.length > 0) keys.add(key);
    } catch {
      // A record too broken to name its key cannot answer a request.
    }
  }
  const byKey = new Map(due.requests.map((d) => [d.recordKey, d]));
  return [...keys].map(
    (recordKey) => byKey.get(recordKey) ?? { recordKey, requestedAt: due.readAt, attempts: 0 },
  );
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
