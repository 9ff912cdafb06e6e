import { EVENT_TYPES, type EventType, type SubjectKind, TEST_EVENT_TYPE } from '../events/types.ts';
import type { JsonSchema } from './jsonSchema.ts';
import { dataMember, headMembers, messageSchema, subjectMember, TEST_MARK } from './messageSchema.ts';
import { pingSchema } from './pingSchema.ts';
import { recordSchema, SUBJECT_RECORDS } from './subjectRecords.ts';

/** Where each event type's schema is published, relative to the repository root. */
export const EVENT_SCHEMA_DIR = 'schemas/events';

/**
 * What `data.previous` holds, per type, as the rules in src/events/rules decide: `null` for a
 * record first seen, `record` for transitions only a stored record can make, `either` where the
 * event fires both for a record first seen and for a change of a stored one.
 */
const PREVIOUS = {
  'shipment.created': 'null',
  'shipment.status_changed': 'record',
  'shipment.delivered': 'either',
  'shipment.exception': 'either',
  'shipment.returned': 'either',
  'shipment.tracking_event': 'either',
  'order.status_changed': 'record',
  'order.hold_added': 'either',
  'order.hold_released': 'record',
  'return.created': 'null',
  'return.status_changed': 'record',
  'return.resolved': 'either',
  'inventory.changed': 'either',
  'inventory.low_stock': 'either',
  'inventory.out_of_stock': 'either',
  'inventory.restocked': 'record',
  'transfer_in.created': 'null',
  'transfer_in.status_changed': 'record',
  'transfer_in.received': 'either',
  'transfer_out.created': 'null',
  'transfer_out.status_changed': 'record',
  'invoice.created': 'null',
  'invoice.paid': 'either',
  'invoice.balance_changed': 'record',
} as const satisfies Record<EventType, 'null' | 'record' | 'either'>;

/**
 * When a type can be seen at all, where the upstream limits it: the API has no order list, so an
 * order's detail (and its holds) is read only when a shipment or return naming it is new or changes.
 */
const VISIBILITY: Partial<Record<EventType, string>> = {
  'order.hold_added':
    "Seen only when the order's detail is fetched while the hold is active, i.e. when a shipment or return naming the order is new or changes (the API has no order list): a hold placed and released before the order's first shipment, the usual case, never yields this event (docs/events.md, When hold events can be seen).",
  'order.hold_released':
    'Seen only for a hold whose order.hold_added was seen, once a later change of a shipment or return of the order makes the sync fetch the detail again after the release (the API has no order list); otherwise the release yields no event (docs/events.md, When hold events can be seen).',
};

const PREVIOUS_TEXT = {
  null: 'null: the record was first seen',
  record: 'the record as stored before this change',
  either: 'the record as stored before this change, or null when the record was first seen',
} as const;

/** The subject kind of an event type: the part before the dot. */
export function subjectKindOf(type: EventType): SubjectKind {
  return type.slice(0, type.indexOf('.')) as SubjectKind;
}

/** The JSON Schema (draft 2020-12) of one event type, self-contained (its record under `$defs`). */
export function eventSchema(type: EventType): JsonSchema {
  const kind = subjectKindOf(type);
  const subject = SUBJECT_RECORDS[kind];
  const ref = { $ref: `#/$defs/${subject.title}` };
  const previous = { null: { type: 'null' }, record: ref, either: { anyOf: [ref, { type: 'null' }] } }[
    PREVIOUS[type]
  ];
  const description = [
    `A ${type} event, as stored in sync.events and sent as the webhook body. data.current: ${subject.about}; data.previous: ${PREVIOUS_TEXT[PREVIOUS[type]]}.`,
    VISIBILITY[type],
  ]
    .filter((part) => part !== undefined)
    .join(' ');
  return {
    ...messageSchema(type, description, ['id', 'type', 'occurredAt', 'detectedAt', 'subject', 'data'], {
      ...headMembers(type, {
        id: 'Deterministic: evt_ + 32 hex of sha256(type|subject key|transition). Also the webhook-id header.',
        occurredAt: 'UTC; the upstream time of the change where the record has one, else detectedAt.',
        detectedAt: 'UTC; when the sync saw the change.',
      }),
      subject: subjectMember(kind, "The record's natural key, parts joined by ':' (a missing part is '')."),
      test: TEST_MARK,
      data: dataMember({
        current: { ...ref, description: `${capitalised(subject.about)}.` },
        previous: { ...previous, description: `${capitalised(PREVIOUS_TEXT[PREVIOUS[type]])}.` },
        changes: CHANGES,
      }),
    }),
    $defs: { [subject.title]: recordSchema(kind) },
  };
}

/** `data.changes` of an event: each field that changed, with its value before and after. */
const CHANGES = {
  type: 'array',
  items: {
    type: 'object',
    required: ['field', 'from', 'to'],
    additionalProperties: false,
    properties: {
      field: {
        type: 'string',
        description: 'Path in the record, e.g. header.statusCode or lineItems[2].qtyReceived.',
      },
      from: { description: 'The value before (null when there was none).' },
      to: { description: 'The value after.' },
    },
  },
} as const;

/** Where a type's schema is published, relative to the repository root (and the npm package). */
export function eventSchemaPath(type: EventType | typeof TEST_EVENT_TYPE): string {
  return `${EVENT_SCHEMA_DIR}/${type}.json`;
}

/** Every event type's schema file, and the ping's: path (relative to the repository root) -> content. */
export function eventSchemaFiles(): Map<string, string> {
  const files = new Map(
    EVENT_TYPES.map((type) => [eventSchemaPath(type), `${JSON.stringify(eventSchema(type), null, 2)}\n`]),
  );
  files.set(eventSchemaPath(TEST_EVENT_TYPE), `${JSON.stringify(pingSchema(), null, 2)}\n`);
  return files;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
