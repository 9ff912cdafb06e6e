import type { Pool } from 'pg';
import { advanceCursor, type CursorMove } from './cursor.ts';
import {
  clearServedRequests,
  type DetailRetryPolicy,
  recordDetailFailures,
  requestDetails,
} from './detailRequests.ts';
import { assertLeaseHeld, type StreamLease } from './lease.ts';
import type { PreparedWindow } from './prepareWindow.ts';
import { type Rejection, recordRejections } from './rejections.ts';
import { type RunRecord, recordRun, reserveRunId } from './runLog.ts';
import { deleteByKeys, writeRows } from './store.ts';
import type { EventPolicy, EventSink, RecordChange, Scope, StreamDefinition, Window } from './types.ts';

/**
 * The one short transaction of a window: lease check, rows and children, events, hooks, the detail
 * queue, the cursor, the run log and rejections, all or nothing. No upstream call happens here:
 * everything was fetched and decided before (prepareWindow.ts).
 */

export interface CommitArgs<R> {
  pool: Pool;
  stream: StreamDefinition<R, unknown>;
  scope: Scope;
  window: Window;
  prepared: PreparedWindow<R>;
  /** Checked first, under a row lock: a run that lost its lease writes nothing. */
  lease: StreamLease | undefined;
  now: Date;
  eventSink: EventSink | undefined;
  eventPolicy: EventPolicy;
  /** Absent: the cursor is left alone (backfills). */
  cursor: CursorMove | undefined;
  detailRetry: DetailRetryPolicy;
  /** The run row, completed with the outcome. */
  run: Omit<RunRecord, 'status' | 'events' | 'finishedAt'>;
  /** An empty poll (emptyPoll.ts): the cursor records it, no run row is written. */
  emptyPoll?: boolean;
}

/** What the commit wrote. */
export interface CommitResult {
  /** Undefined for an empty poll (no run row). */
  runId: number | undefined;
  events: number;
  status: 'succeeded' | 'partial';
  /** Detail requests whose attempts ran out in this window. */
  quarantinedDetails: string[];
}

/** Writes a prepared window in one transaction (see the file comment); throws after a rollback. */
export async function commitWindow<R>(args: CommitArgs<R>): Promise<CommitResult> {
  const { stream, scope, window, prepared, now } = args;
  const entity = stream.entity;
  const tx = await args.pool.connect();
  let broken: Error | undefined;
  try {
    await tx.query('BEGIN');
    if (args.lease) await assertLeaseHeld(tx, args.lease);
    const inserts = prepared.changes.filter((c) => c.kind === 'inserted').map((c) => c.row);
    const updates = prepared.changes.filter((c) => c.kind === 'updated').map((c) => c.row);
    await writeRows(tx, entity.table, inserts, { key: entity.key, upsert: false, syncedAt: now });
    await writeRows(tx, entity.table, updates, { key: entity.key, upsert: true, syncedAt: now });
    for (const { child, diff } of prepared.children) {
      await deleteByKeys(tx, child.table, child.key, diff.deleted);
      await writeRows(tx, child.table, diff.inserted, { key: child.key, upsert: false, syncedAt: now });
      await writeRows(tx, child.table, diff.updated, { key: child.key, upsert: true, syncedAt: now });
    }
    if (args.emptyPoll) {
      // Nothing to write but the cursor's stamps: no run id, no row, no hook (no changes).
      if (args.cursor) await advanceCursor(tx, stream.name, scope, { ...args.cursor, polledAt: new Date() });
      await tx.query('COMMIT');
      return { runId: undefined, events: 0, status: 'succeeded', quarantinedDetails: [] };
    }
    const runId = await reserveRunId(tx);
    let events = 0;
    if (args.eventSink && stream.subjectKind && prepared.changes.length > 0) {
      events = await args.eventSink({
        tx,
        runId,
        stream: stream.name,
        scope,
        subjectKind: stream.subjectKind,
        changes: prepared.changes.map((change) => ({ kind: change.kind, ...eventRecords(stream, change) })),
        detectedAt: now,
        policy: args.eventPolicy,
      });
    }
    await stream.afterWrite?.({ tx, scope, window, now, runId, changes: prepared.changes });
    await clearServedRequests(tx, stream.name, scope.id, prepared.served);
    // A record whose children stayed (withheld) is read again by the next run, which decides.
    const withheld = prepared.childrenWithheld.map((w) => w.recordKey);
    await requestDetails(tx, stream.name, scope.id, withheld, 'children-withheld');
    const quarantinedDetails = await recordDetailFailures(
      tx,
      stream.name,
      scope.id,
      prepared.detailFailures,
      now,
      args.detailRetry,
    );
    // The cursor's poll stamp is the run row's finish: equal, the row is the newest run.
    const finishedAt = new Date();
    if (args.cursor) await advanceCursor(tx, stream.name, scope, { ...args.cursor, polledAt: finishedAt });
    const partial = prepared.quarantined > 0 || prepared.detailFailures.length > 0;
    const status = partial ? 'partial' : 'succeeded';
    await recordRun(tx, { ...args.run, status, events, finishedAt }, runId);
    await recordRejections(
      tx,
      stream.name,
      scope.id,
      runId,
      [...prepared.rejections, ...detailQuarantines(prepared, quarantinedDetails)],
      now,
    );
    await tx.query('COMMIT');
    return { runId, events, status, quarantinedDetails };
  } catch (error) {
    await tx.query('ROLLBACK').catch((e: unknown) => {
      broken = e as Error;
    });
    throw error;
  } finally {
    tx.release(broken);
  }
}

/** The records the event rules compare for one change: the stream's choice, else the default. */
function eventRecords<R>(stream: StreamDefinition<R, unknown>, change: RecordChange<R>) {
  if (stream.eventRecords) return stream.eventRecords(change);
  return {
    previous: change.previousRow?.raw ?? null,
    current: change.record ?? change.row.raw,
  };
}

/** One sync.rejected_records row per detail whose attempts ran out. */
function detailQuarantines(prepared: PreparedWindow<unknown>, keys: readonly string[]): Rejection[] {
  const reasonOf = new Map(prepared.detailFailures.map((f) => [f.recordKey, f.reason]));
  return keys.map((key) => ({
    kind: 'detail' as const,
    key,
    reason: `detail kept failing and is no longer fetched until the record is named again by a user: ${reasonOf.get(key) ?? 'unknown error'}`,
    raw: { recordKey: key },
  }));
}
