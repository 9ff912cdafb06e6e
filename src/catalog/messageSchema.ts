import type { JsonSchema } from './jsonSchema.ts';

/**
 * The JSON Schema pieces every webhook body shares, a derived event's and the `webhooks test`
 * ping's alike: the document around it, the id and times, the subject, the data and the test mark.
 * Each message type describes its own members; the shape is defined once here.
 */

/** A published schema's `$id`: a stable name, not a URL anyone serves. */
const ID_BASE = 'https://fulfillment-sync.example/schemas/events/';

/** The schema document of one message type (draft 2020-12): an object with these members and no other. */
export function messageSchema(
  type: string,
  description: string,
  required: readonly string[],
  properties: JsonSchema,
): JsonSchema {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: `${ID_BASE}${type}.json`,
    title: type,
    description,
    type: 'object',
    required,
    additionalProperties: false,
    properties,
  };
}

/** `id`, `type`, `occurredAt` and `detectedAt`, described as this message type means them. */
export function headMembers(
  type: string,
  describe: { id: string; occurredAt: string; detectedAt: string },
): JsonSchema {
  return {
    id: { type: 'string', pattern: '^evt_[0-9a-f]{32}$', description: describe.id },
    type: { const: type },
    occurredAt: { type: 'string', format: 'date-time', description: describe.occurredAt },
    detectedAt: { type: 'string', format: 'date-time', description: describe.detectedAt },
  };
}

/** `subject`: the kind of thing the message is about, and its key. */
export function subjectMember(kind: string, keyDescription: string): JsonSchema {
  return {
    type: 'object',
    required: ['kind', 'key'],
    additionalProperties: false,
    properties: {
      kind: { const: kind },
      key: { type: 'string', description: keyDescription },
    },
  };
}

/** `data`: the record now and before, and the changes between them. */
export function dataMember(members: {
  current: JsonSchema;
  previous: JsonSchema;
  changes: JsonSchema;
}): JsonSchema {
  return {
    type: 'object',
    required: ['current', 'previous', 'changes'],
    additionalProperties: false,
    properties: members,
  };
}

/** The `test` member: present only on what `webhooks test` sends, an example rather than a change. */
export const TEST_MARK = {
  const: true,
  description:
    'Present (true) only on a `webhooks test` delivery: an example body sent on request, not a change fulfillment-sync saw; never stored in sync.events.',
} as const;
