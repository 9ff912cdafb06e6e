import type { Queryable } from '../db/queryable.ts';

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

/** Why no lease was taken: finished (or gone), a stale attempt number, or another sender holds it. */
export type LeaseResult =
  | { kind: 'leased'; attempt: number; maxAttempts: number | null }
  | { kind: 'finished'; reason: string }
  | { kind: 'busy'; until: Date };

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

/**
 * Takes the right to make attempt `attempt` (or whichever is next when undefined) of a pending
 * delivery for `leaseMs`. Only one sender holds a delivery at a time; a sender that dies loses it
 * when the lease runs out. No transaction stays open while the attempt is sent.
 */
export async function leaseDelivery(
  db: Queryable,
  key: DeliveryKey,
  options: { attempt?: number | undefined; now: Date; leaseMs: number },
): Promise<LeaseResult> {
  const params = [key.endpointId, key.eventId, key.series ?? '', options.now];
  const { rows } = await db.query<{ attempts_made: number; max_attempts: number | null }>(
    `UPDATE sync.webhook_delivery_states
        SET lease_until = $4::timestamptz + make_interval(secs => $6::float8 / 1000), updated_at = $4
      WHERE endpoint_id = $1 AND event_id = $2 AND series = $3 AND status = 'pending'
        AND ($5::int IS NULL OR attempts_made = $5::int - 1)
        AND (lease_until IS NULL OR lease_until <= $4)
      RETURNING attempts_made, max_attempts`,
    [...params, options.attempt ?? null, options.leaseMs],
  );
  const leased = rows[0];
  if (leased) {
    return { kind: 'leased', attempt: Number(leased.attempts_made) + 1, maxAttempts: leased.max_attempts };
  }
  const current = await db.query<{ status: string; attempts_made: number; lease_until: Date | null }>(
    `SELECT status, attempts_made, lease_until FROM sync.webhook_delivery_states
      WHERE endpoint_id = $1 AND event_id = $2 AND series = $3`,
    params.slice(0, 3),
  );
  const row = current.rows[0];
  if (!row) return { kind: 'finished', reason: 'no such delivery (endpoint or event removed)' };
  if (row.status !== 'pending') return { kind: 'finished', reason: `delivery already ${row.status}` };
  if (options.attempt !== undefined && Number(row.attempts_made) !== options.attempt - 1) {
    return { kind: 'finished', reason: `attempt ${options.attempt} is stale (${row.attempts_made} made)` };
  }
  return { kind: 'busy', until: new Date(row.lease_until ?? options.now) };
}

/** Whether the relay's delivery of this event to this endpoint, or any replay of it, already succeeded. */
export async function pairDelivered(db: Queryable, key: DeliveryKey): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT 1 FROM sync.webhook_deliveries
      WHERE endpoint_id = $1 AND event_id = $2 AND status = 'succeeded' LIMIT 1`,
    [key.endpointId, key.eventId],
  );
  return rows.length > 0;
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

/**
 * Moves a delivery past attempt `attempt`: pending again until `nextAttemptAt`, or finished. Only
 * the sender whose attempt is the next one moves it (a sender that lost its lease moves nothing).
 */
export async function advanceDelivery(
  db: Queryable,
  key: DeliveryKey,
  update: {
    attempt: number;
    status: 'pending' | 'succeeded' | 'gave_up';
    nextAttemptAt: Date | null;
    error: string | null;
    now: Date;
  },
): Promise<void> {
  await db.query(
    `UPDATE sync.webhook_delivery_states
        SET status = $5, attempts_made = $4, next_attempt_at = $6, lease_until = NULL, last_error = $7,
            finished_at = CASE WHEN $5 = 'pending' THEN NULL ELSE $8::timestamptz END, updated_at = $8
      WHERE endpoint_id = $1 AND event_id = $2 AND series = $3 AND status = 'pending'
        AND attempts_made = $4 - 1`,
    [
      key.endpointId,
      key.eventId,
      key.series ?? '',
      update.attempt,
      update.status,
      update.nextAttemptAt,
      update.error,
      update.now,
    ],
  );
}

/** Pending deliveries whose next attempt is due at `now` and that no sender holds, oldest first. */
export async function dueAttempts(db: Queryable, now: Date, limit = 500): Promise<DueAttempt[]> {
  const { rows } = await db.query<{
    endpoint_id: string;
    event_id: string;
    series: string;
    attempts_made: number;
  }>(
    `SELECT endpoint_id, event_id, series, attempts_made FROM sync.webhook_delivery_states
      WHERE status = 'pending' AND next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
      ORDER BY next_attempt_at LIMIT $2`,
    [now, limit],
  );
  return rows.map((row) => ({
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    series: row.series,
    attempt: Number(row.attempts_made) + 1,
  }));
}

/** When the earliest pending attempt is due, or undefined when nothing is pending. */
export async function nextDueAt(db: Queryable): Promise<Date | undefined> {
  const { rows } = await db.query<{ at: Date | null }>(
    `SELECT min(next_attempt_at) AS at FROM sync.webhook_delivery_states WHERE status = 'pending'`,
  );
  return rows[0]?.at ? new Date(rows[0].at) : undefined;
}

/** A delivery's current state, for tests and the CLI. */
export interface DeliveryState extends DeliveryKey {
  series: string;
  status: string;
  attemptsMade: number;
  nextAttemptAt: Date | null;
  lastError: string | null;
}

/** Every delivery state of an event, by endpoint and series. */
export async function deliveryStates(db: Queryable, eventId: string): Promise<DeliveryState[]> {
  const { rows } = await db.query<{
    endpoint_id: string;
    event_id: string;
    series: string;
    status: string;
    attempts_made: number;
    next_attempt_at: Date | null;
    last_error: string | null;
  }>(
    `SELECT endpoint_id, event_id, series, status, attempts_made, next_attempt_at, last_error
       FROM sync.webhook_delivery_states WHERE event_id = $1 ORDER BY created_at, endpoint_id, series`,
    [eventId],
  );
  return rows.map((row) => ({
    endpointId: row.endpoint_id,
    eventId: row.event_id,
    series: row.series,
    status: row.status,
    attemptsMade: Number(row.attempts_made),
    nextAttemptAt: row.next_attempt_at ? new Date(row.next_attempt_at) : null,
    lastError: row.last_error,
  }));
}
