import type { Queryable } from '../../db/queryable.ts';

/**
 * What waits to reach the subscribers, read for metrics and the status page: per enabled endpoint,
 * its pending deliveries and how long it has been failing; and the events the relay has not fanned
 * out yet. Read-only; the dispatcher and the relay own these rows.
 */

/** One enabled endpoint's backlog. */
export interface EndpointBacklogRow {
  endpointId: string;
  /** Deliveries not yet answered with a 2xx nor given up (due, waiting for a retry, or in flight). */
  pending: number;
  /** When the oldest pending delivery was handed to the endpoint; null without any. */
  oldestPendingAt: Date | null;
  /** Start of its current run of failures; null while healthy. */
  failingSince: Date | null;
}

/**
 * Every enabled endpoint's backlog (disabled endpoints are sent nothing: their alert is their own).
 * Walks each endpoint's pending deliveries through webhook_delivery_states_endpoint_due_idx, so
 * it costs what the backlog is, not what the table holds.
 */
export async function readEndpointBacklog(db: Queryable): Promise<EndpointBacklogRow[]> {
  const { rows } = await db.query<{
    id: string;
    pending: number;
    oldest: Date | null;
    failing_since: Date | null;
  }>(
    `SELECT e.id, b.pending, b.oldest, e.failing_since
       FROM sync.webhook_endpoints e
       CROSS JOIN LATERAL (
         SELECT count(*)::int AS pending, min(s.created_at) AS oldest
           FROM sync.webhook_delivery_states s
          WHERE s.endpoint_id = e.id AND s.status = 'pending') b
      WHERE e.enabled
      ORDER BY e.created_at, e.id`,
  );
  return rows.map((r) => ({
    endpointId: r.id,
    pending: r.pending,
    oldestPendingAt: r.oldest,
    failingSince: r.failing_since,
  }));
}

/** The relay's backlog: deliverable events not fanned out yet, and when the oldest was detected. */
export interface RelayBacklogRow {
  undispatched: number;
  oldestDetectedAt: Date | null;
}

/**
 * The relay's backlog, from the partial index the relay claims from (events_undispatched_idx):
 * the count walks only undispatched events; the oldest is the first by seq (the relay's order).
 */
export async function readRelayBacklog(db: Queryable): Promise<RelayBacklogRow> {
  const { rows } = await db.query<{ undispatched: number; oldest: Date | null }>(
    `SELECT (SELECT count(*)::int FROM sync.events WHERE dispatched_at IS NULL AND NOT suppressed) AS undispatched,
            (SELECT detected_at FROM sync.events WHERE dispatched_at IS NULL AND NOT suppressed
              ORDER BY seq LIMIT 1) AS oldest`,
  );
  return { undispatched: rows[0]?.undispatched ?? 0, oldestDetectedAt: rows[0]?.oldest ?? null };
}
