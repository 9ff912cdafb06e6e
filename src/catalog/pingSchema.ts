import { TEST_EVENT_TYPE } from '../events/types.ts';
import type { JsonSchema } from './jsonSchema.ts';
import { dataMember, headMembers, messageSchema, subjectMember, TEST_MARK } from './messageSchema.ts';

/** The JSON Schema of the `webhooks test` ping (webhook.test): the endpoint it was sent to. */
export function pingSchema(): JsonSchema {
  return messageSchema(
    TEST_EVENT_TYPE,
    'The ping `webhooks test <id>` sends (without --type): checks that an endpoint receives and verifies deliveries. Not a derived event: never stored, relayed or replayed.',
    ['id', 'type', 'occurredAt', 'detectedAt', 'subject', 'data', 'test'],
    {
      ...headMembers(TEST_EVENT_TYPE, {
        id: 'Random for each test delivery. Also the webhook-id header.',
        occurredAt: 'UTC; when the ping was sent.',
        detectedAt: 'UTC; the same as occurredAt.',
      }),
      subject: subjectMember('endpoint', 'The id of the endpoint the ping was sent to.'),
      data: dataMember({
        current: {
          type: 'object',
          required: ['endpointId', 'message'],
          additionalProperties: false,
          properties: { endpointId: { type: 'string' }, message: { type: 'string' } },
        },
        previous: { type: 'null' },
        changes: { type: 'array', maxItems: 0 },
      }),
      test: TEST_MARK,
    },
  );
}
