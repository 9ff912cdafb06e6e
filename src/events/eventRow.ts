import type { DerivedEvent, EventType, FieldChange, SubjectKind } from './types.ts';

/** A stored sync.events row as pg returns it (the columns the payload needs). */
export interface EventRow {
  id: string;
  type: string;
  subject_kind: string;
  subject_key: string;
  occurred_at: Date | string;
  detected_at: Date | string;
  data: { current: unknown; previous: unknown; changes: FieldChange[] };
}

/** The columns to select for `eventFromRow`. */
export const EVENT_COLUMNS = 'id, type, subject_kind, subject_key, occurred_at, detected_at, data';

/** The public event (webhook body, `events tail` line) from its stored row. */
export function eventFromRow(row: EventRow): DerivedEvent {
  return {
    id: row.id,
    type: row.type as EventType,
    occurredAt: new Date(row.occurred_at).toISOString(),
    detectedAt: new Date(row.detected_at).toISOString(),
    subject: { kind: row.subject_kind as SubjectKind, key: row.subject_key },
    data: row.data,
  };
}
