import { inEpisode, statusTransition } from './episode.ts';
import { eventId } from './eventId.ts';
import { escapeKeyPart, joinKeyParts } from './keyParts.ts';
import type { DeriveContext, DerivedEvent, EventType, FieldChange, SubjectKind } from './types.ts';

/** What a rule decides; the builder fills in the id and the times. */
export interface EventDraft {
  type: EventType;
  kind: SubjectKind;
  key: string;
  /**
   * The transition part of the dedupe key, e.g. 'created', or 'IN_TRANSIT>DELIVERED@<episode>' for
   * a transition a record can repeat (see episode.ts).
   */
  transition: string;
  occurredAt: string | undefined;
  current: unknown;
  previous: unknown;
  changes: FieldChange[];
}

/**
 * A DerivedEvent from a draft: id = hash of `type|key|transition` (the key's `|` escaped, so a key
 * cannot shift into the transition, which is last and may hold `|`); occurredAt falls back to
 * detectedAt.
 */
export function makeEvent(draft: EventDraft, ctx: DeriveContext): DerivedEvent {
  const detectedAt = ctx.detectedAt.toISOString();
  return {
    id: eventId(`${draft.type}|${escapeKeyPart(draft.key, '|')}|${draft.transition}`),
    type: draft.type,
    occurredAt: draft.occurredAt ?? detectedAt,
    detectedAt,
    subject: { kind: draft.kind, key: draft.key },
    data: { current: draft.current, previous: draft.previous, changes: draft.changes },
  };
}

/** What every draft of one change shares: its subject and the records compared. */
export type DraftSubject = Pick<EventDraft, 'kind' | 'key' | 'current' | 'previous'>;

/**
 * `<kind>.created` for a record first seen: its transition is always 'created', so a record is
 * announced as created once, whichever run sees it first; it happened at the upstream time the
 * record names (else when it was detected), and every field is a change.
 */
export function createdDraft(
  subject: DraftSubject,
  type: EventType,
  occurredAt: string | undefined,
  changes: FieldChange[],
): EventDraft {
  return { ...subject, type, transition: 'created', occurredAt, changes };
}

/** A status that moved: from, to, and the marker of the episode it moved in (episode.ts). */
export interface StatusMove {
  from: string | null | undefined;
  to: string | null | undefined;
  episode: string;
}

/**
 * `<kind>.status_changed` for a record whose status moved: its transition names both statuses and
 * the episode, so a status reached again (A -> B -> A) is a new event, not a duplicate of the first.
 * `changes` are the status fields' changes only.
 */
export function statusChangedDraft(
  subject: DraftSubject,
  type: EventType,
  move: StatusMove,
  occurredAt: string | undefined,
  changes: FieldChange[],
): EventDraft {
  const transition = inEpisode(statusTransition(move.from, move.to), move.episode);
  return { ...subject, type, transition, occurredAt, changes };
}

/**
 * Joins key parts with ':', each escaped (keyParts.ts: `\:` for a ':' inside a part, `\\` for a
 * backslash); a missing part is '' as in the warehouse's key columns.
 */
export function subjectKey(...parts: Array<string | number | null | undefined>): string {
  return joinKeyParts(
    ':',
    parts.map((part) => (part === null || part === undefined ? '' : String(part))),
  );
}
