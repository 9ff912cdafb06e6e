import type { PoolClient } from 'pg';
import type { Queryable } from '../db/queryable.ts';
import { deriveEvents, type RecordByKind } from './derive.ts';
import { subjectKey } from './makeEvent.ts';
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
  /** Told the type of each event newly stored (metrics); already stored ids are not repeated. */
  onWritten?: (types: readonly string[]) => void;
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
    const inputs = args.changes
      .map((change) => ({ change, current: ruleRecord(kind, currentRecord(change)) }))
      .filter((input) => hasShape(kind, input.current));
    const lastSeen =
      kind === 'transfer_in' ? await lastEventRecords(args.tx, inputs, args.scope.id) : undefined;
    const events = inputs.flatMap(({ change, current }) => {
      const previous = lastSeen
        ? (lastSeen.get(transferInKey(current, args.scope.id)) ?? transferInFromRaw(change.previousRow?.raw))
        : ruleRecord(kind, change.previousRow?.raw ?? null);
      return deriveEvents(
        kind,
        (previous ?? null) as RecordByKind[typeof kind] | null,
        current as RecordByKind[typeof kind],
        ctx,
      );
    });
    const suppressed = args.initialLoad && !options.deliverInitialLoadEvents && !options.emitEvents;
    const inserted = await writeEvents(args.tx, events, {
      stream: args.stream,
      scope: args.scope.id,
      runId: args.runId ?? null,
      suppressed,
    });
    if (options.onWritten && inserted.length > 0) {
      const typeById = new Map(events.map((event) => [event.id, event.type]));
      options.onWritten(inserted.map((id) => typeById.get(id) ?? 'unknown'));
    }
    return inserted.length;
  };
}

/** Kinds whose rule reads `header`: a list row that was not enriched to its detail derives nothing. */
const HEADER_KINDS: readonly SubjectKind[] = ['shipment', 'order', 'transfer_in'];

function hasShape(kind: SubjectKind, record: unknown): boolean {
  if (!record || typeof record !== 'object') return false;
  return !HEADER_KINDS.includes(kind) || typeof (record as { header?: unknown }).header === 'object';
}

/**
 * The record the rules read: orders travel as `{orderNumber, detail}` (rules read the detail);
 * transfers_in carry a `detailed` flag that is not upstream data.
 */
function ruleRecord(kind: SubjectKind, record: unknown): unknown {
  if (!record || typeof record !== 'object') return record;
  const object = record as Record<string, unknown>;
  if (kind === 'order' && !('header' in object) && object.detail) return object.detail;
  if (kind === 'transfer_in' && 'detailed' in object) {
    const { detailed: _detailed, ...rest } = object;
    return rest;
  }
  return record;
}

function transferInKey(record: unknown, scope: string): string {
  const header = (record as { header: { supplierId?: string | null; orderNumber?: string | null } }).header;
  return subjectKey(header.supplierId ?? scope, header.orderNumber);
}

/** A stored IN row keeps only its list header in `raw`; its lines are not known from it. */
function transferInFromRaw(raw: unknown): unknown {
  return raw && typeof raw === 'object' ? { header: raw, lineItems: [] } : null;
}

/**
 * The previous state of INs: the stored row keeps only the list header and the engine has replaced
 * the lines by the time events are derived, so the last event of each IN (whose `current` holds
 * the lines as they were then; every rise of qtyReceived emitted one) is the previous record.
 */
async function lastEventRecords(
  tx: Queryable,
  inputs: readonly { current: unknown }[],
  scope: string,
): Promise<Map<string, unknown>> {
  const keys = inputs.map((input) => transferInKey(input.current, scope));
  if (keys.length === 0) return new Map();
  const { rows } = await tx.query<{ subject_key: string; current: unknown }>(
    `SELECT DISTINCT ON (subject_key) subject_key, data->'current' AS current
       FROM sync.events WHERE subject_kind = 'transfer_in' AND subject_key = ANY($1::text[])
      ORDER BY subject_key, seq DESC`,
    [keys],
  );
  return new Map(rows.map((row) => [row.subject_key, row.current]));
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
