import type { PoolClient } from 'pg';
import type { Queryable } from '../db/queryable.ts';
import type { DueAttempt } from './deliveryStates.ts';

/** A delivery a sender now holds (its lease is taken): which attempt, and how many are allowed. */
export interface ClaimedDelivery extends DueAttempt {
  /** Null: as many as the retry schedule has. */
  maxAttempts: number | null;
}

export interface ClaimOptions {
  now: Date;
  /** An endpoint's concurrency when its max_concurrency is null (WEBHOOK_ENDPOINT_CONCURRENCY). */
  defaultConcurrency: number;
  /** Most deliveries this claim takes, over all endpoints (what the claiming process can start). */
  limit: number;
  /** How long the lease holds: the attempt's timeout and a margin to record its outcome. */
  leaseMs: number;
}

/**
 * Serialises claims across workers for the moment a claim takes, so two workers counting an
 * endpoint's deliveries in flight cannot both fill its last slot. Any constant shared by all
 * workers of a database will do; this one spells "whcla".
 */
const CLAIM_LOCK = 0x7768636c61;

/**
 * Takes the leases of due deliveries, each endpoint limited on its own: no more in flight (leased,
 * by any worker) than its max_concurrency, none while it is paused (Retry-After), and under
 * rate_limit_per_second no more than its pacing allows (one second of burst). Endpoints share
 * `limit` fairly: each one's oldest due delivery before any endpoint's second. A slow or dead
 * endpoint thus only ever holds its own slots. Runs its own short transaction.
 */
export async function claimDue(
  db: { connect(): Promise<PoolClient> },
  options: ClaimOptions,
): Promise<ClaimedDelivery[]> {
  const client = await db.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [CLAIM_LOCK]);
    const { rows } = await client.query<{
      endpoint_id: string;
      event_id: string;
      series: string;
      attempts_made: number;
      max_attempts: number | null;
    }>(CLAIM_SQL, [options.now, options.defaultConcurrency, options.limit, options.leaseMs]);
    if (rows.length > 0) await advancePacing(client, rows, options.now);
    await client.query('COMMIT');
    return rows.map((row) => ({
      endpointId: row.endpoint_id,
      eventId: row.event_id,
      series: row.series,
      attempt: Number(row.attempts_made) + 1,
      maxAttempts: row.max_attempts === null ? null : Number(row.max_attempts),
    }));
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

/**
 * $1 now, $2 default concurrency, $3 limit, $4 lease in ms. `room`: how many each endpoint may
 * start now (free slots, capped by its pacing allowance); `due`: up to that many of its oldest due
 * deliveries, read through the (endpoint_id, next_attempt_at) index.
 */
const CLAIM_SQL = `
WITH room AS (
  SELECT e.id,
         LEAST(
           COALESCE(e.max_concurrency, $2::int) - (
             SELECT count(*) FROM sync.webhook_delivery_states l
              WHERE l.endpoint_id = e.id AND l.status = 'pending'
                AND l.lease_until IS NOT NULL AND l.lease_until > $1::timestamptz),
           CASE WHEN e.rate_limit_per_second IS NULL THEN $3::int
                ELSE floor(extract(epoch FROM $1::timestamptz - GREATEST(
                       e.next_send_at, $1::timestamptz - interval '1 second')) * e.rate_limit_per_second)::int
           END
         ) AS n
    FROM sync.webhook_endpoints e
   WHERE e.paused_until IS NULL OR e.paused_until <= $1::timestamptz
), due AS (
  SELECT d.endpoint_id, d.event_id, d.series,
         row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at) AS turn
    FROM room r
    CROSS JOIN LATERAL (
      SELECT s.endpoint_id, s.event_id, s.series, s.next_attempt_at
        FROM sync.webhook_delivery_states s
       WHERE s.endpoint_id = r.id AND s.status = 'pending' AND s.next_attempt_at <= $1::timestamptz
         AND (s.lease_until IS NULL OR s.lease_until <= $1::timestamptz)
       ORDER BY s.next_attempt_at
       LIMIT r.n
    ) d
   WHERE r.n > 0
), picked AS (
  SELECT endpoint_id, event_id, series FROM due ORDER BY turn LIMIT $3::int
)
UPDATE sync.webhook_delivery_states s
   SET lease_until = $1::timestamptz + make_interval(secs => $4::float8 / 1000), updated_at = $1
  FROM picked p
 WHERE s.endpoint_id = p.endpoint_id AND s.event_id = p.event_id AND s.series = p.series
   AND s.status = 'pending'
RETURNING s.endpoint_id, s.event_id, s.series, s.attempts_made, s.max_attempts`;

/**
 * Moves the pacing of rate-limited endpoints past what was claimed: each claimed delivery uses
 * 1/rate seconds, from no earlier than one second ago (the burst a quiet endpoint may send).
 */
async function advancePacing(
  client: PoolClient,
  rows: ReadonlyArray<{ endpoint_id: string }>,
  now: Date,
): Promise<void> {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.endpoint_id, (counts.get(row.endpoint_id) ?? 0) + 1);
  await client.query(
    `UPDATE sync.webhook_endpoints e
        SET next_send_at = GREATEST(e.next_send_at, $1::timestamptz - interval '1 second')
                           + make_interval(secs => c.n::float8 / e.rate_limit_per_second)
       FROM unnest($2::text[], $3::int[]) AS c(id, n)
      WHERE e.id = c.id AND e.rate_limit_per_second IS NOT NULL`,
    [now, [...counts.keys()], [...counts.values()]],
  );
}

/**
 * When a claim may next find something to start that it cannot find now: the earliest future due
 * time of a pending delivery, the end of an endpoint's pause, or a rate-limited endpoint's next
 * slot. Undefined: nothing scheduled.
 */
export async function nextClaimAt(db: Queryable, now: Date): Promise<Date | undefined> {
  const { rows } = await db.query<{ at: Date | null }>(
    `SELECT LEAST(
       (SELECT min(next_attempt_at) FROM sync.webhook_delivery_states
         WHERE status = 'pending' AND next_attempt_at > $1),
       (SELECT min(paused_until) FROM sync.webhook_endpoints WHERE paused_until > $1),
       (SELECT min(next_send_at + make_interval(secs => 1.0 / rate_limit_per_second))
          FROM sync.webhook_endpoints
         WHERE rate_limit_per_second IS NOT NULL
           AND next_send_at + make_interval(secs => 1.0 / rate_limit_per_second) > $1)) AS at`,
    [now],
  );
  return rows[0]?.at ? new Date(rows[0].at) : undefined;
}
