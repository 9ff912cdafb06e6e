import type { Queryable } from '../../db/queryable.ts';

/**
 * One delivery of an event to an endpoint: a row of sync.webhook_delivery_states. `series` is ''
 * for the delivery the relay starts, replay_<id> for `webhooks replay`, recover_<id> for `webhooks recover`.
 */
export interface DeliveryKey {
  endpointId: string;
  eventId: string;
  series?: string | undefined;
}

/** A due attempt: the delivery and the attempt number (1-based) that is due. */
export interface DueAttempt extends DeliveryKey {
  attempt: number;
}

/** How deliveries are stored: when they are due, how many attempts they get, what their targets must be. */
export interface CreateOptions {
  now: Date;
  maxAttempts?: number | null;
  /**
   * Leave out, rather than fail on, a delivery whose event or endpoint is no longer stored, or is
   * deleted meanwhile: the event and endpoint rows are locked (KEY SHARE, as the foreign keys
   * would) before the insert, and one the pruner or `webhooks remove` deletes first is skipped.
   * For replays and recovers, which name events the pruner may be removing at that moment.
   */
  onlyStored?: boolean;
}

/**
 * Stores new pending deliveries, due at `now` (existing rows are left alone: a delivery is started
 * once per endpoint, event and series). Runs in the caller's transaction. Returns how many were new.
 */
export async function createDeliveries(
  db: Queryable,
  keys: readonly DeliveryKey[],
  options: CreateOptions,
): Promise<number> {
  let created = 0;
  for (let i = 0; i < keys.length; i += CREATE_CHUNK) {
    created += await createChunk(db, keys.slice(i, i + CREATE_CHUNK), options);
  }
  return created;
}

/** Deliveries per INSERT (one JSON parameter), bounded for memory. */
const CREATE_CHUNK = 5000;

/** The keys (JSON) joined to their stored event and endpoint, locked; see CreateOptions.onlyStored. */
const STORED_KEYS = `(SELECT k.* FROM jsonb_to_recordset($1::jsonb) AS k(endpoint_id text, event_id text, series text)
    JOIN sync.events v ON v.id = k.event_id
    JOIN sync.webhook_endpoints e ON e.id = k.endpoint_id
   FOR KEY SHARE OF v, e) k`;

async function createChunk(
  db: Queryable,
  keys: readonly DeliveryKey[],
  options: CreateOptions,
): Promise<number> {
  const source = options.onlyStored
    ? STORED_KEYS
    : 'jsonb_to_recordset($1::jsonb) AS k(endpoint_id text, event_id text, series text)';
  const { rowCount } = await db.query(
    `INSERT INTO sync.webhook_delivery_states
       (endpoint_id, event_id, series, status, attempts_made, max_attempts, next_attempt_at, created_at, updated_at)
     SELECT k.endpoint_id, k.event_id, k.series, 'pending', 0, $2::int, $3::timestamptz, $3::timestamptz, $3::timestamptz
       FROM ${source}
     ON CONFLICT (endpoint_id, event_id, series) DO NOTHING`,
    [
      JSON.stringify(
        keys.map((k) => ({ endpoint_id: k.endpointId, event_id: k.eventId, series: k.series ?? '' })),
      ),
      options.maxAttempts ?? null,
      options.now,
    ],
  );
  return rowCount ?? 0;
}

/** Ends a delivery without an attempt (endpoint disabled by hand, already delivered). */
export async function finishWithoutAttempt(
  db: Queryable,
  key: DeliveryKey,
  outcome: { status: 'skipped' | 'succeeded' | 'gave_up'; reason: string; now: Date },
): Promise<void> {
  await db.query(
    `UPDATE sync.webhook_delivery_states
        SET status = $4, last_error = $5, next_attempt_at = NULL, lease_until = NULL,
            finished_at = $6, updated_at = $6
      WHERE endpoint_id = $1 AND event_id = $2 AND series = $3 AND status = 'pending'`,
    [key.endpointId, key.eventId, key.series ?? '', outcome.status, outcome.reason, outcome.now],
  );
}
