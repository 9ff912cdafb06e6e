import { EVENT_TYPES, type EventType, type SubjectKind, TEST_EVENT_TYPE } from '../events/types.ts';
import type { JsonSchema } from './jsonSchema.ts';
import { recordSchema, SUBJECT_RECORDS } from './subjectRecords.ts';

/** Where each event type's schema is published, relative to the repository root. */
export const EVENT_SCHEMA_DIR = 'schemas/events';

/** A published schema's `$id`: a stable name, not a URL anyone serves. */
const ID_BASE = 'https://fulfillment-sync.example/schemas/events/';

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
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${ID_BASE}${type}.json`,
    title: type,
    description: [
      `A ${type} event, as stored in sync.events and sent as the webhook body. data.current: ${subject.about}; data.previous: ${PREVIOUS_TEXT[PREVIOUS[type]]}.`,
      VISIBILITY[type],
    ]
      .filter((part) => part !== undefined)
      .join(' '),
    type: 'object',
    required: ['id', 'type', 'occurredAt', 'detectedAt', 'subject', 'data'],
    additionalProperties: false,
    properties: {
      id: {
        type: 'string',
        pattern: '^evt_[0-9a-f]{32}$',
        description:
          'Deterministic: evt_ + 32 hex of sha256(type|subject key|transition). Also the webhook-id header.',
      },
      type: { const: type },
      occurredAt: {
        type: 'string',
        format: 'date-time',
        description: 'UTC; the upstream time of the change where the record has one, else detectedAt.',
      },
      detectedAt: { type: 'string', format: 'date-time', description: 'UTC; when the sync saw the change.' },
      subject: {
        type: 'object',
        required: ['kind', 'key'],
        additionalProperties: false,
        properties: {
          kind: { const: kind },
          key: {
            type: 'string',
            description: "The record's natural key, parts joined by ':' (a missing part is '').",
          },
        },
      },
      test: TEST_MARK,
      data: {
        type: 'object',
        required: ['current', 'previous', 'changes'],
        additionalProperties: false,
        properties: {
          current: { ...ref, description: `${capitalised(subject.about)}.` },
          previous: { ...previous, description: `${capitalised(PREVIOUS_TEXT[PREVIOUS[type]])}.` },
          changes: {
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
          },
        },
      },
    },
    $defs: { [subject.title]: recordSchema(kind) },
  };
}

/** The `test` member: present only on what `webhooks test` sends, an example rather than a change. */
const TEST_MARK = {
  const: true,
  description:
    'Present (true) only on a `webhooks test` delivery: an example body sent on request, not a change fulfillment-sync saw; never stored in sync.events.',
} as const;

/** The JSON Schema of the `webhooks test` ping (webhook.test): the endpoint it was sent to. */
export function pingSchema(): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${ID_BASE}${TEST_EVENT_TYPE}.json`,
    title: TEST_EVENT_TYPE,
    description:
      'The ping `webhooks test <id>` sends (without --type): checks that an endpoint receives and verifies deliveries. Not a derived event: never stored, relayed or replayed.',
    type: 'object',
    required: ['id', 'type', 'occurredAt', 'detectedAt', 'subject', 'data', 'test'],
    additionalProperties: false,
    properties: {
      id: {
        type: 'string',
        pattern: '^evt_[0-9a-f]{32}$',
        description: 'Random for each test delivery. Also the webhook-id header.',
      },
      type: { const: TEST_EVENT_TYPE },
      occurredAt: { type: 'string', format: 'date-time', description: 'UTC; when the ping was sent.' },
      detectedAt: { type: 'string', format: 'date-time', description: 'UTC; the same as occurredAt.' },
      subject: {
        type: 'object',
        required: ['kind', 'key'],
        additionalProperties: false,
        properties: {
          kind: { const: 'endpoint' },
          key: { type: 'string', description: 'The id of the endpoint the ping was sent to.' },
        },
      },
      data: {
        type: 'object',
        required: ['current', 'previous', 'changes'],
        additionalProperties: false,
        properties: {
          current: {
            type: 'object',
            required: ['endpointId', 'message'],
            additionalProperties: false,
            properties: { endpointId: { type: 'string' }, message: { type: 'string' } },
          },
          previous: { type: 'null' },
          changes: { type: 'array', maxItems: 0 },
        },
      },
      test: TEST_MARK,
    },
  };
}

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
