import { describe, expect, it } from 'vitest';
import { exampleMessage } from '../../src/catalog/eventExamples.ts';
import { EVENT_TYPES, TEST_EVENT_TYPE } from '../../src/events/types.ts';
import { compileSchema } from '../helpers/eventSchemaValidator.ts';

/**
 * What `webhooks test --type T` and `events example T` send is what the published schema of T
 * describes: every example, and the ping, validated by ajv against the committed schema files.
 */
describe('event examples', () => {
  const id = `evt_${'ab'.repeat(16)}`;
  const at = new Date('2026-03-01T10:00:00Z');

  it.each([...EVENT_TYPES, TEST_EVENT_TYPE] as const)(
    'the example of %s is valid against its schema',
    (type) => {
      const example = JSON.parse(JSON.stringify(exampleMessage(type, { id, at, endpointId: 'ep_1' })));
      const validate = compileSchema(type);
      expect(validate(example), JSON.stringify(validate.errors)).toBe(true);
      expect(example).toMatchObject({ id, type, test: true, occurredAt: at.toISOString() });
    },
  );

  it('the schemas refuse a test mark other than true and an example of another type', () => {
    const example = exampleMessage('shipment.delivered', { id, at });
    const validate = compileSchema('shipment.delivered');
    expect(validate({ ...example, test: false })).toBe(false);
    expect(compileSchema('shipment.created')(example)).toBe(false);
    expect(compileSchema(TEST_EVENT_TYPE)(example)).toBe(false);
  });
});
