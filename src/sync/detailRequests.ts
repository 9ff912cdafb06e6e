import type { Queryable } from '../db/queryable.ts';

/**
 * The detail queue, `sync.detail_requests`: records whose detail a stream still has to fetch
 * (orders named by changed shipments and returns; INs and products whose detail call failed).
 * One row per stream, scope and record, so repeated names deduplicate. A request is deleted in the
 * transaction that stores its detail, so a failed run keeps it; a failing detail is retried with
 * backoff and quarantined after `maxAttempts`, so one broken record never blocks the others.
 */

/** A queued request as a run read it. */
export interface DetailRequest {
  recordKey: string;
  /** `requested_at` as exact timestamptz text: a JS Date would drop the microseconds compared on delete. */
  requestedAt: string;
  attempts: number;
}

/** One detail call that failed in a run. */
export interface DetailFailure {
  recordKey: string;
  reason: string;
}

/** How failing details are retried: the delay doubles from `baseDelayMs` up to `maxDelayMs`. */
export interface DetailRetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_DETAIL_RETRY: DetailRetryPolicy = {
  maxAttempts: 10,
  baseDelayMs: 60_000,
  maxDelayMs: 6 * 3_600_000,
};

/** How long to wait before the next attempt after `attempts` failures (pure). */
export function detailRetryDelayMs(attempts: number, policy: DetailRetryPolicy): number {
  const exponent = Math.max(0, Math.min(attempts - 1, 30));
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
}

/**
 * Queues detail requests in the caller's transaction. Naming a queued record again moves its
 * `requested_at` forward, so a run that read the request before this change leaves it queued (it
 * deletes only what it read). Its backoff, attempts and quarantine stay: a record named on every
 * change (an order whose shipment keeps moving) would otherwise be called on every change and
 * quarantined within the hour. A request a user asked for starts over, due at once.
 */
export async function requestDetails(
  tx: Queryable,
  stream: string,
  scope: string,
  recordKeys: readonly (string | null | undefined)[],
  reason: string,
): Promise<number> {
  const unique = [...new Set(recordKeys.filter((k): k is string => typeof k === 'string' && k.length > 0))];
  if (unique.length === 0) return 0;
  await tx.query(
    `INSERT INTO sync.detail_requests AS r (stream, scope, record_key, reason)
     SELECT $1, $2, k, $3 FROM unnest($4::text[]) AS u(k)
     ON CONFLICT (stream, scope, record_key) DO UPDATE SET
       requested_at = greatest(clock_timestamp(), r.requested_at + interval '1 microsecond'),
       next_attempt_at = CASE WHEN EXCLUDED.reason = 'user' THEN NULL ELSE r.next_attempt_at END,
       attempts = CASE WHEN EXCLUDED.reason = 'user' THEN 0 ELSE r.attempts END,
       quarantined_at = CASE WHEN EXCLUDED.reason = 'user' THEN NULL ELSE r.quarantined_at END`,
    [stream, scope, reason, unique],
  );
  return unique.length;
}

/** The due requests of one stream and scope, with the database time they were read at. */
export interface DueRequests {
  requests: DetailRequest[];
  /**
   * `clock_timestamp()` of the read, as exact text: a record stored with its detail afterwards
   * serves every request not named again since (see `clearServedRequests`).
   */
  readAt: string;
}

/**
 * The requests due at `now` (not quarantined, backoff over), oldest first, at most `limit`; with
 * `keys`, only those of these records (a listing's rows: requests of records it does not list
 * cannot crowd them out).
 */
export async function dueDetailRequests(
  db: Queryable,
  stream: string,
  scope: string,
  now: Date,
  limit: number,
  keys?: readonly string[],
): Promise<DueRequests> {
  const res = await db.query<{
    record_key: string | null;
    requested_at: string | null;
    attempts: number | null;
    read_at: string;
  }>(
    `SELECT d.record_key, d.requested_at::text AS requested_at, d.attempts, clock_timestamp()::text AS read_at
       FROM (SELECT 1) AS one
       LEFT JOIN LATERAL (
         SELECT record_key, requested_at, attempts FROM sync.detail_requests
          WHERE stream = $1 AND scope = $2 AND quarantined_at IS NULL
            AND (next_attempt_at IS NULL OR next_attempt_at <= $3)
            AND ($5::text[] IS NULL OR record_key = ANY($5::text[]))
          ORDER BY requested_at, record_key LIMIT $4) AS d ON true`,
    [stream, scope, now, limit, keys ?? null],
  );
  const readAt = res.rows[0]?.read_at ?? new Date().toISOString();
  const requests = res.rows
    .filter((r) => r.record_key !== null)
    .map((r) => ({
      recordKey: r.record_key as string,
      requestedAt: r.requested_at as string,
      attempts: r.attempts ?? 0,
    }));
  return { requests, readAt };
}

/**
 * Of `keys`, those whose request is not due at `now`: backing off after a failure, or quarantined.
 * A stream that fetches records by key outside the due list (an IN that left the open lists) skips
 * these, so every detail call by key follows the one backoff rule.
 */
export async function heldBackKeys(
  db: Queryable,
  stream: string,
  scope: string,
  keys: readonly string[],
  now: Date,
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const res = await db.query<{ record_key: string }>(
    `SELECT record_key FROM sync.detail_requests
      WHERE stream = $1 AND scope = $2 AND record_key = ANY($3::text[])
        AND (quarantined_at IS NOT NULL OR next_attempt_at > $4)`,
    [stream, scope, keys, now],
  );
  return new Set(res.rows.map((r) => r.record_key));
}

/**
 * Deletes the served requests that were not named again since the run read them (a newer change
 * may postdate the detail this run fetched; that request stays for the next run).
 */
export async function clearServedRequests(
  tx: Queryable,
  stream: string,
  scope: string,
  served: readonly DetailRequest[],
): Promise<void> {
  if (served.length === 0) return;
  await tx.query(
    `DELETE FROM sync.detail_requests r
      USING unnest($3::text[], $4::timestamptz[]) AS s(record_key, requested_at)
      WHERE r.stream = $1 AND r.scope = $2 AND r.record_key = s.record_key AND r.requested_at <= s.requested_at`,
    [stream, scope, served.map((s) => s.recordKey), served.map((s) => s.requestedAt)],
  );
}

/**
 * Records failed detail calls in the caller's transaction: queues the record if it was not (a
 * changed list row whose detail failed), counts the attempt, schedules the next one with backoff
 * from `now`, and quarantines it once `maxAttempts` is reached. Answers the keys quarantined now.
 */
export async function recordDetailFailures(
  tx: Queryable,
  stream: string,
  scope: string,
  failures: readonly DetailFailure[],
  now: Date,
  policy: DetailRetryPolicy,
): Promise<string[]> {
  if (failures.length === 0) return [];
  const byKey = new Map(failures.map((f) => [f.recordKey, f.reason]));
  const res = await tx.query<{ record_key: string; attempts: number }>(
    `INSERT INTO sync.detail_requests AS r (stream, scope, record_key, reason, requested_at, attempts, last_error)
     SELECT $1, $2, k, 'detail-failed', $3, 1, e FROM unnest($4::text[], $5::text[]) AS u(k, e)
     ON CONFLICT (stream, scope, record_key) DO UPDATE SET attempts = r.attempts + 1, last_error = EXCLUDED.last_error
     RETURNING record_key, attempts`,
    [stream, scope, now, [...byKey.keys()], [...byKey.values()]],
  );
  const quarantined: string[] = [];
  const keys: string[] = [];
  const next: (Date | null)[] = [];
  const stamps: (Date | null)[] = [];
  for (const row of res.rows) {
    const done = row.attempts >= policy.maxAttempts;
    if (done) quarantined.push(row.record_key);
    keys.push(row.record_key);
    next.push(done ? null : new Date(now.getTime() + detailRetryDelayMs(row.attempts, policy)));
    stamps.push(done ? now : null);
  }
  await tx.query(
    `UPDATE sync.detail_requests r SET next_attempt_at = u.n, quarantined_at = u.q
       FROM unnest($3::text[], $4::timestamptz[], $5::timestamptz[]) AS u(k, n, q)
      WHERE r.stream = $1 AND r.scope = $2 AND r.record_key = u.k`,
    [stream, scope, keys, next, stamps],
  );
  return quarantined;
}
