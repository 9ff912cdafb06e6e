import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/queryable.ts';
import type { DeliveryJob } from '../delivery/deliver.ts';
import { type EndpointFilter, endpointWantsSql } from '../endpoints/endpointFilter.ts';
import { getEndpoint } from '../endpoints/endpoints.ts';
import { enqueueReplayDeliveries } from './replay.ts';

/** Bad recover input: no such endpoint, or one that is disabled (nothing would be sent). */
export class RecoverError extends Error {
  override name = 'RecoverError';
}

/**
 * How far before a disabled period's start the relay's fan-outs are looked at: a relay transaction
 * stamps `dispatched_at` when it begins, and may read the endpoint as disabled a moment later. An
 * event found there that the endpoint did get has a delivery row and is left out.
 */
const DISPATCH_MARGIN_MS = 60_000;

/** Whether the endpoint ($5-$7: its types, accounts, suppliers) wants the event `e`. */
const WANTED_BY_FILTER = endpointWantsSql(
  { eventTypes: '$5::text[]', accountNumbers: '$6::text[]', supplierIds: '$7::text[]' },
  'e',
);

/** The same, its filter in $3-$5. */
const WANTED_BY_FILTER_AT_3 = endpointWantsSql(
  { eventTypes: '$3::text[]', accountNumbers: '$4::text[]', supplierIds: '$5::text[]' },
  'e',
);

/** What `webhooks recover` found and stored. */
export interface RecoverResult {
  /** Events whose delivery failed or gave up since T, with no success for this endpoint. */
  failed: number;
  /** Events the relay did not send to the endpoint because it was disabled (since T). */
  missedWhileDisabled: number;
  /** Failed events still being retried on their schedule: not sent again now, that would be twice. */
  stillRetrying: number;
  /** The new deliveries (series recover_<id>, the event id as webhook-id). */
  deliveries: DeliveryJob[];
}

/**
 * Re-sends to one enabled endpoint what did not reach it since `since`, of the types it takes now:
 * deliveries whose attempts failed or gave up (or that were dropped when it was disabled) and that never succeeded, and the
 * events the relay skipped while it was disabled (sync.webhook_endpoint_disablements). Nothing it
 * received is sent again, and nothing still pending a retry. Stores them as a new series, the way
 * `webhooks replay` does; the worker sends them with the same webhook-id (the event id).
 */
export async function recoverEndpoint(
  db: Queryable,
  endpointId: string,
  since: Date,
  now: Date = new Date(),
): Promise<RecoverResult> {
  const endpoint = await getEndpoint(db, endpointId);
  if (!endpoint) throw new RecoverError(`No endpoint ${endpointId}: see \`webhooks list\`.`);
  if (!endpoint.enabled) {
    throw new RecoverError(
      `Endpoint ${endpointId} is disabled (${endpoint.disabledReason ?? 'by hand'}): \`webhooks enable ${endpointId}\` first, then recover.`,
    );
  }
  const failed = await failedSince(db, endpointId, endpoint, since);
  const missed = await missedWhileDisabled(db, endpointId, endpoint, since, now);
  const retrying = failed.filter((f) => f.retrying).map((f) => f.eventId);
  const failedIds = new Set(failed.map((f) => f.eventId));
  const missedOnly = missed.filter((id) => !failedIds.has(id));
  const wanted = [...failed.filter((f) => !f.retrying).map((f) => f.eventId), ...missedOnly];
  const series = `recover_${randomUUID().replaceAll('-', '')}`;
  const deliveries = wanted.map((eventId) => ({ endpointId, eventId, series }));
  await enqueueReplayDeliveries(db, deliveries, now);
  return {
    failed: failed.length - retrying.length,
    missedWhileDisabled: missedOnly.length,
    stillRetrying: retrying.length,
    deliveries,
  };
}

/**
 * Events the endpoint wants now (its types and scopes: `filter`) with a failed or given-up
 * attempt since `since`, or a delivery dropped because the endpoint was disabled, that never
 * succeeded at this endpoint (by an attempt or a delivery state); `retrying` when a delivery of
 * the event to it is still pending. In event order.
 */
async function failedSince(
  db: Queryable,
  endpointId: string,
  filter: EndpointFilter,
  since: Date,
): Promise<Array<{ eventId: string; retrying: boolean }>> {
  const { rows } = await db.query<{ event_id: string; retrying: boolean }>(
    `WITH candidates AS (
       SELECT event_id FROM sync.webhook_deliveries
        WHERE endpoint_id = $1 AND status IN ('failed', 'gave_up') AND attempted_at >= $2
       UNION
       SELECT event_id FROM sync.webhook_delivery_states
        WHERE endpoint_id = $1 AND status = 'skipped' AND last_error LIKE 'endpoint disabled%'
          AND finished_at >= $2)
     SELECT c.event_id,
            EXISTS (SELECT 1 FROM sync.webhook_delivery_states p
                     WHERE p.endpoint_id = $1 AND p.event_id = c.event_id AND p.status = 'pending') AS retrying
       FROM candidates c JOIN sync.events e ON e.id = c.event_id
      WHERE ${WANTED_BY_FILTER_AT_3}
        AND NOT EXISTS (SELECT 1 FROM sync.webhook_deliveries s
                         WHERE s.endpoint_id = $1 AND s.event_id = c.event_id AND s.status = 'succeeded')
        -- Attempts are pruned after RETENTION_DELIVERIES_DAYS, delivery states only with their
        -- event: a success whose attempt row is gone still shows in its delivery's state.
        AND NOT EXISTS (SELECT 1 FROM sync.webhook_delivery_states d
                         WHERE d.endpoint_id = $1 AND d.event_id = c.event_id AND d.status = 'succeeded')
      ORDER BY e.seq`,
    [endpointId, since, filter.eventTypes, filter.accountNumbers, filter.supplierIds],
  );
  return rows.map((row) => ({ eventId: row.event_id, retrying: row.retrying }));
}

/**
 * Events the relay fanned out while the endpoint was disabled (since `since`) that it wants and
 * has no delivery of at all: what it would have received had it been enabled. In event order.
 */
async function missedWhileDisabled(
  db: Queryable,
  endpointId: string,
  filter: EndpointFilter,
  since: Date,
  now: Date,
): Promise<string[]> {
  const { rows } = await db.query<{ id: string }>(
    `SELECT e.id FROM sync.webhook_endpoint_disablements p
       JOIN sync.events e
         ON e.dispatched_at >= greatest(p.disabled_at - make_interval(secs => $4::float8 / 1000), $2)
        AND e.dispatched_at < coalesce(p.enabled_at, $3)
      WHERE p.endpoint_id = $1 AND coalesce(p.enabled_at, $3) >= $2
        AND NOT e.suppressed
        AND ${WANTED_BY_FILTER}
        AND NOT EXISTS (SELECT 1 FROM sync.webhook_delivery_states s
                         WHERE s.endpoint_id = $1 AND s.event_id = e.id)
      GROUP BY e.id, e.seq
      ORDER BY e.seq`,
    [
      endpointId,
      since,
      now,
      DISPATCH_MARGIN_MS,
      filter.eventTypes,
      filter.accountNumbers,
      filter.supplierIds,
    ],
  );
  return rows.map((row) => row.id);
}
