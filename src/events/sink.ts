import type { PoolClient } from 'pg';
import { deriveEvents, type RecordByKind } from './derive.ts';
import { writeEvents } from './outbox.ts';
import { type StockThresholds, SUBJECT_KINDS, type SubjectKind } from './types.ts';

/** One changed record as the engine reports it (structurally src/sync/types.ts RecordChange). */
export interface ChangeInput {
  record: unknown;
  row: Record<string, unknown>;
  previousRow: Record<string, unknown> | undefined;
}

/** The engine's EventSink arguments (structurally src/sync/types.ts EventSink). */
export interface SinkArgs {
  tx: PoolClient;
  stream: string;
  scope: { kind: string; id: string };
  subjectKind: string;
  changes: readonly ChangeInput[];
  detectedAt: Date;
  initialLoad: boolean;
  runId?: string | number | bigint | null;
}

export interface EventSinkOptions {
  timezone: string;
  thresholds: StockThresholds;
  /** config.events.deliverInitialLoadEvents */
  deliverInitialLoadEvents: boolean;
  /** `--emit-events` of this run: deliver even a first load's or a backfill's events. */
  emitEvents?: boolean;
}

/**
 * The engine's event sink: derives events from each change (previous = the stored row's `raw`,
 * current = the record received, or for a row the engine produced itself, e.g. a vanished
 * inventory row zeroed, its `raw` overlaid with the row's columns) and writes them to the outbox
 * in the window's transaction. Returns how many were newly stored.
 */
export function createEventSink(options: EventSinkOptions): (args: SinkArgs) => Promise<number> {
  return async (args) => {
    if (!isSubjectKind(args.subjectKind)) {
      throw new Error(
        `Unknown event subject kind "${args.subjectKind}": use one of ${SUBJECT_KINDS.join(', ')}.`,
      );
    }
    const kind = args.subjectKind;
    const ctx = {
      detectedAt: args.detectedAt,
      timezone: options.timezone,
      thresholds: options.thresholds,
      scope: args.scope.id,
    };
    const events = args.changes.flatMap((change) => {
      const current = currentRecord(change);
      if (!hasShape(kind, current)) return [];
      const previous = (change.previousRow?.raw ?? null) as RecordByKind[typeof kind] | null;
      return deriveEvents(kind, previous, current as RecordByKind[typeof kind], ctx);
    });
    const suppressed = args.initialLoad && !options.deliverInitialLoadEvents && !options.emitEvents;
    const inserted = await writeEvents(args.tx, events, {
      stream: args.stream,
      scope: args.scope.id,
      runId: args.runId ?? null,
      suppressed,
    });
    return inserted.length;
  };
}

/** Kinds whose rule reads `header`: a list row that was not enriched to its detail derives nothing. */
const HEADER_KINDS: readonly SubjectKind[] = ['shipment', 'order', 'transfer_in'];

function hasShape(kind: SubjectKind, record: unknown): boolean {
  if (!record || typeof record !== 'object') return false;
  return !HEADER_KINDS.includes(kind) || typeof (record as { header?: unknown }).header === 'object';
}

function isSubjectKind(value: string): value is SubjectKind {
  return (SUBJECT_KINDS as readonly string[]).includes(value);
}

/** The record as received, or the engine-made row rebuilt over the last raw record. */
function currentRecord(change: ChangeInput): unknown {
  if (change.record !== undefined) return change.record;
  const raw = change.row.raw ?? change.previousRow?.raw;
  if (!raw || typeof raw !== 'object') return undefined;
  const rebuilt: Record<string, unknown> = { ...(raw as Record<string, unknown>) };
  for (const field of Object.keys(rebuilt)) {
    const column = field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    if (column in change.row) rebuilt[field] = change.row[column];
  }
  return rebuilt;
}
