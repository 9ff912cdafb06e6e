import type { PgTable } from 'drizzle-orm/pg-core';
import type { PoolClient } from 'pg';
import type { Logger } from 'pino';
import { tableInfo, valueKind } from './columns.ts';
import { dedupeByKey, diffChildren, diffRows, keyOf, type TableShape } from './diff.ts';
import { deleteByKeys, loadByKeys, loadWhere, writeRows } from './store.ts';
import type {
  ChildEntity,
  RecordChange,
  RejectedRecord,
  Row,
  Scope,
  StreamDefinition,
  Window,
} from './types.ts';

/** Comparison shape of a table from its Drizzle definition. */
export function shapeOf(table: PgTable, key: readonly string[]): TableShape {
  const kinds = new Map<string, ReturnType<typeof valueKind>>();
  for (const [column, sqlType] of tableInfo(table).types) kinds.set(column, valueKind(sqlType));
  return { key, kinds };
}

/** What one window changed, for the run log, events and hooks. */
export interface ApplyResult<R> {
  inserted: number;
  updated: number;
  unchanged: number;
  /** Records whose rows could not be built (e.g. an unparseable date-time). */
  rejected: Array<RejectedRecord & { key?: string | undefined }>;
  changes: RecordChange<R>[];
  apiCalls: number;
  /** True when a 'snapshot' window had rejected records, so vanished rows were not looked for. */
  vanishSkipped: boolean;
}

interface Incoming<R> {
  record: R | undefined;
  row: Row;
  key: string;
}

/**
 * Diffs and writes one window's records inside `tx` (the caller holds the stream lock): parent
 * rows by key, children of changed parents as a set, snapshot rows that vanished. Unchanged
 * records cost one batched read and no write.
 */
export async function applyWindow<R, C>(args: {
  tx: PoolClient;
  stream: StreamDefinition<R, C>;
  client: C;
  scope: Scope;
  window: Window;
  timezone: string;
  records: readonly R[];
  /** How many records of this window upstream's answer already lost to validation. */
  upstreamRejected?: number;
  logger: Logger;
}): Promise<ApplyResult<R>> {
  const { tx, stream, scope, window, timezone, logger } = args;
  const entity = stream.entity;
  const shape = shapeOf(entity.table, entity.key);
  const ctx = { scope, timezone };
  const rejected: ApplyResult<R>['rejected'] = [];

  const built: Incoming<R>[] = [];
  args.records.forEach((record, index) => {
    try {
      const row = entity.row(record, ctx);
      built.push({ record, row, key: keyOf(row, shape) });
    } catch (error) {
      rejected.push({ index, reason: `row could not be built: ${(error as Error).message}`, raw: record });
    }
  });
  const incoming = dedupeByKey(built, (i) => i.key);

  const stored = await loadByKeys(
    tx,
    entity.table,
    entity.key,
    incoming.map((i) => i.row),
  );
  const storedByKey = new Map<string, Row>();
  for (const row of stored) storedByKey.set(keyOf(row, shape), row);

  const diff = diffRows(
    incoming.map((i) => i.row),
    storedByKey,
    shape,
  );
  const recordByKey = new Map(incoming.map((i) => [i.key, i.record]));
  const changes: RecordChange<R>[] = [
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

  // A rejected record is still in the snapshot, only unreadable: taken for vanished it would be
  // zeroed and announced out of stock. With any rejection the snapshot is incomplete, so vanishing
  // waits for the next clean one.
  const incomplete = (args.upstreamRejected ?? 0) + rejected.length > 0;
  const vanishSkipped = Boolean(entity.snapshot) && window.kind === 'snapshot' && incomplete;
  if (vanishSkipped) {
    logger.warn(
      { rejected: (args.upstreamRejected ?? 0) + rejected.length },
      'snapshot has rejected records: vanish detection skipped until a clean snapshot',
    );
  } else if (entity.snapshot && window.kind === 'snapshot') {
    const present = new Set(incoming.map((i) => i.key));
    for (const row of await loadWhere(tx, entity.table, entity.snapshot.where(scope, window))) {
      if (present.has(keyOf(row, shape))) continue;
      const next = entity.snapshot.vanished(row);
      if (next && !rowsSame(row, next, shape))
        changes.push({ kind: 'updated', record: undefined, row: next, previousRow: row });
    }
  }

  let apiCalls = 0;
  let changedRecords = changes.filter((c) => c.record !== undefined).map((c) => c.record as R);
  if (stream.enrich && changedRecords.length > 0) {
    const enriched = await stream.enrich({
      tx,
      client: args.client,
      scope,
      window,
      logger,
      changes,
      records: changedRecords,
    });
    apiCalls += enriched.apiCalls;
    changedRecords = enriched.records;
    // Events and hooks see the enriched record (e.g. an IN's detail, which its rules read).
    const byKey = new Map<string, R>();
    for (const r of changedRecords) {
      try {
        byKey.set(keyOf(entity.row(r, ctx), shape), r);
      } catch {
        // A record the stream reshaped beyond its row builder: its change keeps what the stream set.
      }
    }
    for (const change of changes) {
      const enrichedRecord = byKey.get(keyOf(change.row, shape));
      if (enrichedRecord !== undefined) change.record = enrichedRecord;
    }
  }

  const inserts = changes.filter((c) => c.kind === 'inserted').map((c) => c.row);
  const updates = changes.filter((c) => c.kind === 'updated').map((c) => c.row);
  await writeRows(tx, entity.table, inserts, { key: entity.key, upsert: false });
  await writeRows(tx, entity.table, updates, { key: entity.key, upsert: true });

  const updatedParents = changes
    .filter((c) => c.kind === 'updated' && c.record !== undefined)
    .map((c) => c.row);
  for (const child of entity.children ?? []) {
    await applyChildren(tx, child, entity.key, changedRecords, updatedParents, ctx);
  }

  return {
    inserted: diff.inserted.length,
    updated: changes.length - diff.inserted.length,
    unchanged: diff.unchanged.length,
    rejected,
    changes,
    apiCalls,
    vanishSkipped,
  };
}

function rowsSame(stored: Row, next: Row, shape: TableShape): boolean {
  return diffRows([next], new Map([[keyOf(next, shape), stored]]), shape).unchanged.length === 1;
}

/** Replaces the children of changed records as a set. */
async function applyChildren<R>(
  tx: PoolClient,
  child: ChildEntity<R>,
  parentKey: readonly string[],
  records: readonly R[],
  updatedParents: readonly Row[],
  ctx: { scope: Scope; timezone: string },
): Promise<void> {
  const shape = shapeOf(child.table, child.key);
  const rows = dedupeByKey(
    records.flatMap((r) => child.rows(r, ctx)),
    (row) => keyOf(row, shape),
  );
  // Stored children matter only for parents that existed before; new parents have none.
  const parentKeys = updatedParents.map((p) => {
    const k: Row = {};
    child.parentKey.forEach((column, i) => {
      k[column] = p[parentKey[i] as string];
    });
    return k;
  });
  const stored = await loadByKeys(tx, child.table, child.parentKey, parentKeys);
  const diff = diffChildren(rows, stored, shape);
  await deleteByKeys(tx, child.table, child.key, diff.deleted);
  await writeRows(tx, child.table, diff.inserted, { key: child.key, upsert: false });
  await writeRows(tx, child.table, diff.updated, { key: child.key, upsert: true });
}
