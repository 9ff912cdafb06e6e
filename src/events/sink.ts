import type { EventSink } from '../sync/types.ts';
import type { AmbiguousTime } from '../time/parse.ts';
import { deriveEvents, type RecordByKind } from './derive.ts';
import { writeEvents } from './outbox.ts';
import { type DerivedEvent, type StockThresholds, SUBJECT_KINDS, type SubjectKind } from './types.ts';

export interface EventSinkOptions {
  timezone: string;
  /** config.ambiguousTime: how offset-less times in the repeated autumn hour are read. */
  ambiguousTime?: AmbiguousTime;
  thresholds: StockThresholds;
  /** Told the type of each event newly stored (metrics); already stored ids are not repeated. */
  onWritten?: (types: readonly string[]) => void;
}

/**
 * The engine's event sink: derives events from each change (the stream decides which records its
 * rules compare) and writes them to the outbox in the window's transaction. Whether an event is
 * delivered depends on the change alone (`isHistory`), whichever run found it. Returns how many
 * were newly stored.
 */
export function createEventSink(options: EventSinkOptions): EventSink {
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
      ambiguousTime: options.ambiguousTime,
      thresholds: options.thresholds,
      scope: args.scope.id,
    };
    const live: DerivedEvent[] = [];
    const history: DerivedEvent[] = [];
    for (const change of args.changes) {
      if (!change.current || typeof change.current !== 'object') continue;
      const events = deriveEvents(
        kind,
        (change.previous ?? null) as RecordByKind[typeof kind] | null,
        change.current as RecordByKind[typeof kind],
        ctx,
      );
      for (const event of events) {
        if (isHistory(event, change.kind, args.policy)) history.push(event);
        else live.push(event);
      }
    }
    const meta = { stream: args.stream, scope: args.scope.id, runId: args.runId };
    const inserted = [
      ...(await writeEvents(args.tx, live, { ...meta, suppressed: false })),
      ...(await writeEvents(args.tx, history, { ...meta, suppressed: true })),
    ];
    if (options.onWritten && inserted.length > 0) {
      const typeById = new Map([...live, ...history].map((event) => [event.id, event.type]));
      options.onWritten(inserted.map((id) => typeById.get(id) ?? 'unknown'));
    }
    return inserted.length;
  };
}

/**
 * History is stored but not delivered (unless asked for): everything during a scope's initial
 * load, and afterwards events of a record first seen now whose time predates what the initial load
 * read (older data a backfill reaches). A change to a record already stored is always live.
 */
export function isHistory(
  event: Pick<DerivedEvent, 'occurredAt'>,
  change: 'inserted' | 'updated',
  policy: { initialLoad: boolean; historyBefore: Date | undefined; deliverHistory: boolean },
): boolean {
  if (policy.deliverHistory) return false;
  if (policy.initialLoad) return true;
  if (change !== 'inserted' || !policy.historyBefore) return false;
  return Date.parse(event.occurredAt) < policy.historyBefore.getTime();
}

function isSubjectKind(value: string): value is SubjectKind {
  return (SUBJECT_KINDS as readonly string[]).includes(value);
}
