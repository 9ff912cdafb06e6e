import { randomBytes } from 'node:crypto';
import { exampleMessage } from '../../catalog/eventExamples.ts';
import { type EventType, TEST_EVENT_TYPE } from '../../events/types.ts';
import { signingSecrets } from '../endpoints/endpointSecrets.ts';
import { getEndpoint } from '../endpoints/endpoints.ts';
import type { Resolve } from '../endpoints/safeLookup.ts';
import type { TargetPolicy } from '../endpoints/targetPolicy.ts';
import { type AttemptResult, attemptDelivery, DELIVERY_TIMEOUT_MS } from './post/attempt.ts';

export { TEST_EVENT_TYPE } from '../../events/types.ts';

/** A test delivery for an endpoint that does not exist. */
export class UnknownEndpointError extends Error {
  override name = 'UnknownEndpointError';
}

/** What a test delivery needs: the endpoint's row, the target policy, name resolution. */
export interface TestDeliveryDeps {
  db: Parameters<typeof getEndpoint>[0];
  policy: TargetPolicy;
  resolve?: Resolve | undefined;
  timeoutMs?: number | undefined;
}

/**
 * `webhooks test`: sends one example of `type` (default the webhook.test ping), marked `test: true`,
 * to one endpoint now, with the endpoint's secrets, custom headers and the same target checks as
 * any delivery; one attempt, sent even to a disabled endpoint (the user asked). Nothing is stored:
 * the example is not an event, so it never reaches sync.events, the relay or a replay. Returns the
 * webhook-id (a fresh random evt_ id) and what the receiver answered.
 */
export async function sendTestDelivery(
  deps: TestDeliveryDeps,
  endpointId: string,
  type: EventType | typeof TEST_EVENT_TYPE = TEST_EVENT_TYPE,
): Promise<{ messageId: string; result: AttemptResult }> {
  const endpoint = await getEndpoint(deps.db, endpointId);
  if (!endpoint) throw new UnknownEndpointError(`No endpoint ${endpointId}: see \`webhooks list\`.`);
  const messageId = `evt_${randomBytes(16).toString('hex')}`;
  const now = new Date();
  const message = exampleMessage(type, { id: messageId, at: now, endpointId });
  const result = await attemptDelivery({
    url: endpoint.url,
    secrets: signingSecrets(endpoint, now),
    msgId: messageId,
    body: JSON.stringify(message),
    customHeaders: endpoint.headers,
    policy: deps.policy,
    resolve: deps.resolve,
    timeoutMs: deps.timeoutMs ?? DELIVERY_TIMEOUT_MS,
  });
  return { messageId, result };
}
