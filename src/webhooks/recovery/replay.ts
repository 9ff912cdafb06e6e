import { randomUUID } from 'node:crypto';
import type { Queryable } from '../../db/queryable.ts';
import type { DeliveryJob } from '../delivery/deliver.ts';
import { createDeliveries } from '../delivery/deliveryStates.ts';
import { announceDeliveries } from '../delivery/dispatcher.ts';
import type { EventRouting } from '../endpoints/endpointFilter.ts';
import { endpointWants, listEndpoints } from '../endpoints/endpoints.ts';

export type ReplaySelection = { eventId: string } | { from: Date; to: Date };

/** Bad replay input (unknown endpoint, empty range). */
export class ReplayError extends Error {
  override name = 'ReplayError';
}

/**
 * Re-sends events (one by id, or all that occurred in [from, to)) to the enabled endpoints that
 * want them, or to one endpoint, of them only those of the types it takes: stores a new series of
 * pending deliveries (same webhook-id, the event id), due at once, and announces them, so a running
 * worker's dispatcher claims them within moments and sends them, with their retries, as it sends
 * any other. `queued`: deliveries stored; `types`: the types of the events matched.
 * Suppressed events are included: replay is how a backfill's events are sent on purpose.
 */
export async function replayEvents(
  db: Queryable,
  selection: ReplaySelection,
  options: { endpointId?: string | undefined; now?: Date } = {},
): Promise<{ events: number; jobs: number; queued: number; deliveries: DeliveryJob[]; types: string[] }> {
  const { endpointId } = options;
  const endpoints = (await listEndpoints(db)).filter(
    (e) => e.enabled && (!endpointId || e.id === endpointId),
  );
  if (endpointId && endpoints.length === 0) {
    throw new ReplayError(`No enabled endpoint ${endpointId}: see \`webhooks list\`.`);
  }
  const { rows } =
    'eventId' in selection
      ? await db.query('SELECT id, type, stream, scope FROM sync.events WHERE id = $1', [selection.eventId])
      : await db.query(
          `SELECT id, type, stream, scope FROM sync.events WHERE occurred_at >= $1 AND occurred_at < $2
            ORDER BY occurred_at, seq`,
          [selection.from, selection.to],
        );
  const series = `replay_${randomUUID().replaceAll('-', '')}`;
  const deliveries: DeliveryJob[] = rows.flatMap((event) =>
    endpoints
      .filter((endpoint) => endpointWants(endpoint, eventRouting(event)))
      .map((endpoint) => ({ endpointId: endpoint.id, eventId: String(event.id), series })),
  );
  const queued = await enqueueReplayDeliveries(db, deliveries, options.now ?? new Date());
  const types = [...new Set(rows.map((event) => String(event.type)))].sort();
  return { events: rows.length, jobs: deliveries.length, queued, deliveries, types };
}

function eventRouting(row: Record<string, unknown>): EventRouting {
  return {
    type: String(row.type),
    stream: (row.stream as string | null) ?? null,
    scope: (row.scope as string | null) ?? null,
  };
}

/**
 * How every asked-for re-send (`webhooks replay`, `webhooks recover`) is handed to the senders: new
 * pending deliveries of a series, due now, announced so a running worker's dispatcher claims them
 * at once. An event the pruner deletes meanwhile (or an endpoint removed) is left out, not an
 * error. Returns how many were stored.
 */
export async function enqueueReplayDeliveries(
  db: Queryable,
  deliveries: readonly DeliveryJob[],
  now: Date,
): Promise<number> {
  const queued = await createDeliveries(db, deliveries, { now, onlyStored: true });
  if (queued > 0) await announceDeliveries(db);
  return queued;
}
