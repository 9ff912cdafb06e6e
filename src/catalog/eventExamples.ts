import { EVENT_TYPES, type EventType, type FieldChange, TEST_EVENT_TYPE } from '../events/types.ts';
import { EXAMPLES } from './exampleRecords.ts';

/**
 * One example body per event type, as `webhooks test --type T` sends it and `events example T`
 * prints it: the shape of schemas/events/<T>.json (test/catalog/eventExamples.test.ts validates every
 * one with ajv), marked `test: true`. Made-up values only: no consumer's name, address or contact.
 */

/** What a test message carries besides a derived event's members. */
export interface TestMessage {
  id: string;
  type: EventType | typeof TEST_EVENT_TYPE;
  occurredAt: string;
  detectedAt: string;
  subject: { kind: string; key: string };
  data: { current: unknown; previous: unknown; changes: FieldChange[] };
  /** Always true: an example sent on request, not a change fulfillment-sync saw. */
  test: true;
}

/** Whether `type` can be sent by `webhooks test`: an event type, or the ping. */
export function isTestMessageType(type: string): type is EventType | typeof TEST_EVENT_TYPE {
  return type === TEST_EVENT_TYPE || (EVENT_TYPES as readonly string[]).includes(type);
}

/**
 * The example of `type` with this id and time: an event type's example record, or (the ping) a
 * message naming the endpoint it was sent to.
 */
export function exampleMessage(
  type: EventType | typeof TEST_EVENT_TYPE,
  options: { id: string; at: Date; endpointId?: string | undefined },
): TestMessage {
  const at = options.at.toISOString();
  if (type === TEST_EVENT_TYPE) {
    const endpointId = options.endpointId ?? 'ep_example';
    return {
      id: options.id,
      type,
      occurredAt: at,
      detectedAt: at,
      subject: { kind: 'endpoint', key: endpointId },
      data: {
        current: { endpointId, message: 'fulfillment-sync test delivery' },
        previous: null,
        changes: [],
      },
      test: true,
    };
  }
  const example = EXAMPLES[type];
  return {
    id: options.id,
    type,
    occurredAt: at,
    detectedAt: at,
    subject: { kind: type.slice(0, type.indexOf('.')), key: example.key },
    data: { current: example.current, previous: example.previous, changes: example.changes },
    test: true,
  };
}
