import { randomUUID } from 'node:crypto';
import type { Queryable } from '../db/queryable.ts';
import type { DeliveryJob } from './deliver.ts';
import { endpointWants, listEndpoints } from './endpoints.ts';
import type { Enqueue } from './relay.ts';

export type ReplaySelection = { eventId: string } | { from: Date; to: Date };

/** Bad replay input (unknown endpoint, empty range). */
export class ReplayError extends Error {
  override name = 'ReplayError';
}

/**
 * Re-sends events (one by id, or all that occurred in [from, to)) to the enabled endpoints that
 * want them, or to one endpoint. Each is a new series of attempts with the same webhook-id (the
 * event id). Suppressed events are included: replay is how a backfill's events are sent on purpose.
 */
export async function replayEvents(
  db: Queryable,
  enqueue: Enqueue,
  selection: ReplaySelection,
  endpointId?: string,
): Promise<{ events: number; jobs: number }> {
  const endpoints = (await listEndpoints(db)).filter(
    (e) => e.enabled && (!endpointId || e.id === endpointId),
  );
  if (endpointId && endpoints.length === 0) {
    throw new ReplayError(`No enabled endpoint ${endpointId}: see \`webhooks list\`.`);
  }
  const { rows } =
    'eventId' in selection
      ? await db.query('SELECT id, type FROM sync.events WHERE id = $1', [selection.eventId])
      : await db.query(
          'SELECT id, type FROM sync.events WHERE occurred_at >= $1 AND occurred_at < $2 ORDER BY occurred_at, seq',
          [selection.from, selection.to],
        );
  const replayOf = randomUUID();
  const jobs: DeliveryJob[] = rows.flatMap((event) =>
    endpoints
      .filter((endpoint) => endpointId || endpointWants(endpoint, String(event.type)))
      .map((endpoint) => ({ endpointId: endpoint.id, eventId: String(event.id), replayOf })),
  );
  if (jobs.length > 0) await enqueue(jobs);
  return { events: rows.length, jobs: jobs.length };
}
