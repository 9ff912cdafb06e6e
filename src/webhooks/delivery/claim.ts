import type { PoolClient, QueryResult } from 'pg';
import type { Queryable } from '../../db/queryable.ts';
import { EVENT_COLUMNS, type EventRow } from '../../events/eventRow.ts';
import { ENDPOINT_COLUMNS, type Endpoint, endpointFromRow } from '../endpoints/endpoints.ts';
import {
  CONCURRENCY,
  FAIR_ORDER,
  NEXT_PACED_AT,
  NOT_PAUSED,
  PACING_ALLOWANCE,
  PACING_RATE,
  pacedAfter,
} from './claimPolicy.ts';
import type { DeliveryKey, DueAttempt } from './deliveryStates.ts';

export { PROBE_AFTER_MS } from './claimPolicy.ts';

/**
 * A delivery a sender now holds (its lease is taken): which attempt, how many are allowed, and
 * what sending it reads (read by the claim itself, so a batch costs one round trip).
 */
export interface ClaimedDelivery extends DueAttempt {
  /** Null: as many as the retry schedule has. */
  maxAttempts: number | null;
  /** Undefined: removed meanwhile. */
  endpoint: Endpoint | undefined;
  /** Undefined: no longer stored. */
  event: EventRow | undefined;
  /** A relay delivery (series '') whose pair already succeeded. */
  delivered: boolean;
  /** When the attempt came due (its next_attempt_at). */
  dueAt: Date;
}

export interface ClaimOptions {
  now: Date;
  /** An endpoint's concurrency when its max_concurrency is null (WEBHOOK_ENDPOINT_CONCURRENCY). */
  defaultConcurrency: number;
  /** Most deliveries this claim takes, over all endpoints (what the claiming process can start). */
  limit: number;
  /** How long the lease holds: the attempt's timeout and a margin to record its outcome. */
  leaseMs: number;
  /**
   * Deliveries the claiming process still holds whose attempt is over (their outcome is being
   * recorded): their leases stand until that commit, but nothing is in flight to their endpoint,
   * so they do not count against its concurrency. Named one by one, not counted, so that an
   * outcome committed meanwhile is never discounted twice.
   */
  settled?: readonly DeliveryKey[];
  /**
   * Per endpoint id, the due time from which its due deliveries are looked for: the oldest that
   * the last claim took. Delivered deliveries leave dead index entries ahead of the live ones
   * until a vacuum, which every claim would otherwise step over again (the cost grew with the
   * backlog delivered). An older delivery can still be due (a lease ran out, another worker's
   * clock): a claim without floors finds it, which the dispatcher makes every poll interval.
   */
  floors?: ReadonlyMap<string, Date>;
}

/**
 * Serialises claims across workers for the moment a claim takes, so two workers counting an
 * endpoint's deliveries in flight cannot both fill its last slot. Any constant shared by all
 * workers of a database will do; this one spells "whcla".
 */
const CLAIM_LOCK = 0x7768636c61;

/**
 * Takes the leases of due deliveries, each endpoint limited on its own by the rules of
 * claimPolicy.ts: no more in flight (leased, by any worker) than its concurrency, none while it is
 * paused (Retry-After), under rate_limit_per_second no more than its pacing allows (one second of
 * burst), and one attempt at a time, one a second, once it has failed without a success for
 * PROBE_AFTER_MS. Endpoints share `limit` fairly (FAIR_ORDER: least in flight first), so a slow
 * or dead endpoint only ever holds its own slots. Runs its own short transaction, in one round trip.
 */
export async function claimDue(
  db: { connect(): Promise<PoolClient> },
  options: ClaimOptions,
): Promise<ClaimedDelivery[]> {
  const client = await db.connect();
  try {
    // One round trip: the lock is taken before the claim's snapshot, and the commit follows. The
    // commit does not wait for its WAL flush: a lease that a Postgres crash loses only makes its
    // delivery due again, and it is then sent again with the same webhook-id (at least once, as
    // any lease that runs out); waiting for the disk on every claim halved the throughput.
    const settled = client.escapeLiteral(JSON.stringify(settledRows(options.settled ?? [])));
    const floors = client.escapeLiteral(JSON.stringify(floorRows(options.floors)));
    const results = (await client.query(
      `BEGIN; SET LOCAL synchronous_commit = off; SELECT pg_advisory_xact_lock(${CLAIM_LOCK}); ${claimSql(options, settled, floors)}; COMMIT`,
    )) as unknown as QueryResult[];
    const rows = (results[3]?.rows ?? []) as ClaimRow[];
    return rows.map((row) => ({
      endpointId: row.endpoint_id,
      eventId: row.event_id,
      series: row.series,
      attempt: Number(row.attempts_made) + 1,
      maxAttempts: row.max_attempts === null ? null : Number(row.max_attempts),
      endpoint: row.endpoint ? endpointFromRow(row.endpoint) : undefined,
      event: row.event ?? undefined,
      delivered: row.delivered,
      dueAt: new Date(row.next_attempt_at),
    }));
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

interface ClaimRow {
  endpoint_id: string;
  event_id: string;
  series: string;
  attempts_made: number;
  max_attempts: number | null;
  endpoint: Record<string, unknown> | null;
  event: EventRow | null;
  delivered: boolean;
  next_attempt_at: Date | string;
}

/**
 * The claim with its values written in (all numbers and a timestamp made here, never input), so
 * it travels with BEGIN and COMMIT in one simple query.
 */
function claimSql(options: ClaimOptions, settledLiteral: string, floorsLiteral: string): string {
  const ints = [options.defaultConcurrency, options.limit, Math.round(options.leaseMs)];
  if (!ints.every((n) => Number.isSafeInteger(n) && n >= 0)) {
    throw new Error(`claim options must be non-negative integers: ${ints.join(', ')}`);
  }
  const values: Record<string, string> = {
    $1: `'${options.now.toISOString()}'`,
    $2: String(ints[0]),
    $3: String(ints[1]),
    $4: String(ints[2]),
    // Escaped by the driver: event ids and series are text from outside.
    $5: settledLiteral,
    $6: floorsLiteral,
  };
  return CLAIM_SQL.replace(/\$[1-6]\b/g, (name) => values[name] as string);
}

function floorRows(floors: ReadonlyMap<string, Date> | undefined): Array<{ e: string; at: string }> {
  return [...(floors ?? [])].map(([e, at]) => ({ e, at: at.toISOString() }));
}

function settledRows(keys: readonly DeliveryKey[]): Array<{ e: string; v: string; s: string }> {
  return keys.map((key) => ({ e: key.endpointId, v: key.eventId, s: key.series ?? '' }));
}

/**
 * $1 now, $2 default concurrency, $3 limit, $4 lease in ms, $5 the settled deliveries (JSON),
 * $6 the floors (JSON). `endpoints`: each one's attempts in flight (`busy`), concurrency and
 * pacing allowance; `room`: how many it may start now; `due`: up to that many of its oldest due
 * deliveries, read through the (endpoint_id, next_attempt_at) index; `picked`: the claim's limit of
 * them in FAIR_ORDER; `claimed` takes their leases and `paced` moves the pacing of rate-limited
 * endpoints past them.
 */
const CLAIM_SQL = `
WITH settled AS (
  SELECT * FROM jsonb_to_recordset($5::jsonb) AS x(e text, v text, s text)
), floors AS (
  SELECT * FROM jsonb_to_recordset($6::jsonb) AS x(e text, at timestamptz)
), endpoints AS MATERIALIZED (
  SELECT e.id, COALESCE(f.at, '-infinity'::timestamptz) AS floor, ${CONCURRENCY} AS concurrency,
         ${PACING_ALLOWANCE} AS allowance,
         (SELECT count(*) FROM sync.webhook_delivery_states l
           WHERE l.endpoint_id = e.id AND l.status = 'pending'
             AND l.lease_until IS NOT NULL AND l.lease_until > $1::timestamptz
             AND NOT EXISTS (SELECT 1 FROM settled x
                              WHERE x.e = l.endpoint_id AND x.v = l.event_id AND x.s = l.series)) AS busy
    FROM sync.webhook_endpoints e
    LEFT JOIN floors f ON f.e = e.id
   WHERE ${NOT_PAUSED}
), room AS (
  SELECT id, floor, busy, LEAST(concurrency - busy, allowance) AS n FROM endpoints
), due AS (
  SELECT d.endpoint_id, d.event_id, d.series, d.next_attempt_at, r.busy,
         row_number() OVER (PARTITION BY d.endpoint_id ORDER BY d.next_attempt_at) AS turn
    FROM room r
    CROSS JOIN LATERAL (
      SELECT s.endpoint_id, s.event_id, s.series, s.next_attempt_at
        FROM sync.webhook_delivery_states s
       WHERE s.endpoint_id = r.id AND s.status = 'pending' AND s.next_attempt_at <= $1::timestamptz
         AND s.next_attempt_at >= r.floor
         AND (s.lease_until IS NULL OR s.lease_until <= $1::timestamptz)
       ORDER BY s.next_attempt_at
       LIMIT r.n
    ) d
   WHERE r.n > 0
), picked AS (
  SELECT d.endpoint_id, d.event_id, d.series FROM due d ORDER BY ${FAIR_ORDER} LIMIT $3::int
), claimed AS (
  UPDATE sync.webhook_delivery_states s
     SET lease_until = $1::timestamptz + make_interval(secs => $4::float8 / 1000), updated_at = $1
    FROM picked p
   WHERE s.endpoint_id = p.endpoint_id AND s.event_id = p.event_id AND s.series = p.series
     AND s.status = 'pending'
  RETURNING s.endpoint_id, s.event_id, s.series, s.attempts_made, s.max_attempts, s.next_attempt_at
), paced AS (
  -- Each claimed delivery uses 1/rate seconds of its endpoint's pacing.
  UPDATE sync.webhook_endpoints e
     SET next_send_at = ${pacedAfter('c.n')}
    FROM (SELECT endpoint_id, count(*) AS n FROM claimed GROUP BY endpoint_id) c
   WHERE e.id = c.endpoint_id AND ${PACING_RATE} IS NOT NULL
)
SELECT c.*,
       (SELECT to_json(x) FROM (SELECT ${ENDPOINT_COLUMNS} FROM sync.webhook_endpoints
          WHERE id = c.endpoint_id) x) AS endpoint,
       (SELECT to_json(x) FROM (SELECT ${EVENT_COLUMNS} FROM sync.events WHERE id = c.event_id) x) AS event,
       c.series = '' AND EXISTS (
         SELECT 1 FROM sync.webhook_deliveries d
          WHERE d.endpoint_id = c.endpoint_id AND d.event_id = c.event_id AND d.status = 'succeeded'
       ) AS delivered
  FROM claimed c`;

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
       (SELECT min(${NEXT_PACED_AT}) FROM sync.webhook_endpoints e
         WHERE ${PACING_RATE} IS NOT NULL AND ${NEXT_PACED_AT} > $1)) AS at`,
    [now],
  );
  return rows[0]?.at ? new Date(rows[0].at) : undefined;
}
