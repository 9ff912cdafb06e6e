import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/queryable.ts';
import { createDeliveries } from '../delivery/deliveryStates.ts';
import { announceDeliveries } from '../delivery/dispatcher.ts';
import { endpointWants } from '../endpoints/endpointFilter.ts';
import { getEndpoint } from '../endpoints/endpoints.ts';

/** No such attempt (never made, or pruned), or its endpoint is disabled: nothing was queued. */
export class ResendError extends Error {
  override name = 'ResendError';
}

/** What `webhooks resend` queued. */
export interface Resent {
  attemptId: number;
  endpointId: string;
  /** Also the webhook-id the receiver gets, as on every delivery of the event. */
  eventId: string;
  type: string;
  /** The new delivery's series: resend_<id>. */
  series: string;
  /** Whether the endpoint's types and scopes still cover the event (it is sent either way: it was asked for). */
  stillWanted: boolean;
}

/**
 * Sends the event of one recorded attempt (sync.webhook_deliveries.id, as `webhooks attempts`
 * lists it) to that attempt's endpoint once more, now: a new delivery of series resend_<id> with
 * a single attempt and no retries (Svix's manual resend), due at once and announced, so a running
 * worker's dispatcher claims and sends it within moments, signed with the endpoint's current
 * secrets and the same webhook-id (the event id). Its outcome is an attempt like any other.
 */
export async function resendAttempt(
  db: Queryable,
  attemptId: number,
  now: Date = new Date(),
): Promise<Resent> {
  const { rows } = await db.query<{
    endpoint_id: string;
    event_id: string;
    type: string;
    stream: string | null;
    scope: string | null;
  }>(
    `SELECT d.endpoint_id, d.event_id, e.type, e.stream, e.scope
       FROM sync.webhook_deliveries d JOIN sync.events e ON e.id = d.event_id
      WHERE d.id = $1`,
    [attemptId],
  );
  const attempt = rows[0];
  const endpoint = attempt && (await getEndpoint(db, attempt.endpoint_id));
  if (!attempt || !endpoint) {
    throw new ResendError(
      `No attempt ${attemptId}: see \`webhooks attempts\` (attempts are kept for RETENTION_DELIVERIES_DAYS; \`webhooks replay --event ID --endpoint ID\` re-sends any stored event).`,
    );
  }
  if (!endpoint.enabled) {
    throw new ResendError(
      `Endpoint ${endpoint.id} is disabled (${endpoint.disabledReason ?? 'by hand'}): \`webhooks enable ${endpoint.id}\` first, then resend.`,
    );
  }
  const series = `resend_${randomUUID().replaceAll('-', '')}`;
  await createDeliveries(db, [{ endpointId: endpoint.id, eventId: attempt.event_id, series }], {
    now,
    maxAttempts: 1,
  });
  await announceDeliveries(db);
  return {
    attemptId,
    endpointId: endpoint.id,
    eventId: attempt.event_id,
    type: attempt.type,
    series,
    stillWanted: endpointWants(endpoint, attempt),
  };
}
