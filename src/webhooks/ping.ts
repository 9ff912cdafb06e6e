import { randomBytes } from 'node:crypto';
import { type DeliverDeps, type DeliverOutcome, deliverEvent } from './deliver.ts';
import { type DeliveryRecord, listAttempts } from './deliveries.ts';
import { createDeliveries } from './deliveryStates.ts';
import { getEndpoint } from './endpoints.ts';

/** The type of `webhooks test` pings: not a derived event, never relayed or replayed by range. */
export const TEST_EVENT_TYPE = 'webhook.test';

/** A ping for an endpoint that does not exist. */
export class UnknownEndpointError extends Error {
  override name = 'UnknownEndpointError';
}

/**
 * `webhooks test`: stores a `webhook.test` event (suppressed, so no relay picks it up) and sends it
 * to one endpoint now, through the same signing, target checks, delivery and recording as any
 * event, as a one-attempt series (no retries). Returns the outcome and the recorded attempt.
 */
export async function sendTestPing(
  deps: DeliverDeps,
  endpointId: string,
): Promise<{ eventId: string; outcome: DeliverOutcome; attempt: DeliveryRecord | undefined }> {
  const endpoint = await getEndpoint(deps.db, endpointId);
  if (!endpoint) throw new UnknownEndpointError(`No endpoint ${endpointId}: see \`webhooks list\`.`);
  const token = randomBytes(12).toString('hex');
  const eventId = `evt_ping_${token}`;
  const series = `test_${token}`;
  const now = deps.now?.() ?? new Date();
  const data = {
    current: { endpointId, url: endpoint.url, message: 'fulfillment-sync test delivery' },
    previous: null,
    changes: [],
  };
  await deps.db.query(
    `INSERT INTO sync.events (id, type, subject_kind, subject_key, occurred_at, detected_at, data, suppressed)
     VALUES ($1, $2, 'endpoint', $3, $4, $4, $5::jsonb, true)`,
    [eventId, TEST_EVENT_TYPE, endpointId, now, JSON.stringify(data)],
  );
  await createDeliveries(deps.db, [{ endpointId, eventId, series }], { now, maxAttempts: 1 });
  const outcome = await deliverEvent(deps, { endpointId, eventId, series }, 1);
  const attempts = await listAttempts(deps.db, eventId);
  return { eventId, outcome, attempt: attempts.at(-1) };
}
