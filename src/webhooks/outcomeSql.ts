import { storableText } from '../api/storable.ts';
import type { OutcomeRecord } from './outcomes.ts';

/** The columns of one outcome as the group write reads it ($1, a JSON array of `outcomeRows`). */
const RECORD_COLUMNS = `endpoint_id text, event_id text, series text, attempt int, status text,
  state_status text, response_code int, duration_ms int, error text, response_body text,
  attempted_at timestamptz, next_attempt_at timestamptz`;

/** The outcomes as the JSON the group write reads; text Postgres cannot store (NUL) is repaired. */
export function outcomeRows(records: readonly OutcomeRecord[]): string {
  return JSON.stringify(
    records.map((r) => ({
      endpoint_id: r.endpoint.id,
      event_id: r.job.eventId,
      series: r.job.series ?? '',
      attempt: r.attempt,
      status: r.status,
      state_status: r.status === 'failed' ? 'pending' : r.status,
      response_code: r.result.statusCode,
      duration_ms: r.result.durationMs,
      error: r.result.error === null ? null : storableText(r.result.error),
      response_body: r.result.responseBody === null ? null : storableText(r.result.responseBody),
      attempted_at: r.attemptedAt.toISOString(),
      next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
    })),
  );
}

/**
 * An endpoint's failing_since after a batch (`e` the endpoint as stored, `b` the batch's latest
 * success and the first failure after it): a success at or after the stored run's start ends it
 * (a failure after that success starts the next one); otherwise the earlier of the two.
 */
const FAILING_SINCE_AFTER = `CASE WHEN e.failing_since <= b.succeeded_at THEN b.failed_at
       ELSE LEAST(e.failing_since, b.failed_at) END`;

/**
 * The group write, one statement whatever the number of outcomes ($1: `outcomeRows`):
 *
 * - `live`: the outcomes whose endpoint and event are still stored, locked (KEY SHARE, as the
 *   foreign keys would) for the statement. An endpoint removed while its deliveries were in flight
 *   took them with it: its outcomes are left out instead of failing everyone else's.
 * - `attempts` stores the attempt rows; the main UPDATE moves each delivery to its next state, only
 *   where this sender's attempt is the next one (a sender that lost its lease moves nothing).
 * - `health` keeps each endpoint's `failing_since` at the first failure after its latest success,
 *   by attempt time, against what is stored now rather than what the claim saw: a success ends a
 *   failure run that began at or before it; a failure starts one unless a success came after it
 *   (in this batch or already stored). An endpoint whose value does not change is not written, so
 *   a batch of successes of a healthy endpoint touches no endpoint row.
 */
export const OUTCOMES_SQL = `
WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(${RECORD_COLUMNS})),
live AS (
  SELECT r.* FROM r
    JOIN sync.webhook_endpoints e ON e.id = r.endpoint_id
    JOIN sync.events v ON v.id = r.event_id
   FOR KEY SHARE OF e, v
),
attempts AS (
  INSERT INTO sync.webhook_deliveries
    (endpoint_id, event_id, attempt, status, response_code, duration_ms, error, response_body,
     attempted_at, next_attempt_at, series)
  SELECT endpoint_id, event_id, attempt, status, response_code, duration_ms, error, response_body,
         attempted_at, next_attempt_at, series
    FROM live
),
succeeded AS (
  SELECT endpoint_id, max(attempted_at) FILTER (WHERE status = 'succeeded') AS at
    FROM live GROUP BY endpoint_id
),
failed AS (
  SELECT l.endpoint_id, min(l.attempted_at) AS at
    FROM live l JOIN succeeded s USING (endpoint_id)
   WHERE l.status <> 'succeeded' AND l.attempted_at > COALESCE(s.at, '-infinity')
     AND NOT EXISTS (SELECT 1 FROM sync.webhook_deliveries d
                      WHERE d.endpoint_id = l.endpoint_id AND d.attempted_at > l.attempted_at
                        AND d.status = 'succeeded')
   GROUP BY l.endpoint_id
),
health AS (
  UPDATE sync.webhook_endpoints e
     SET failing_since = ${FAILING_SINCE_AFTER}, updated_at = now()
    FROM (SELECT s.endpoint_id, s.at AS succeeded_at, f.at AS failed_at
            FROM succeeded s LEFT JOIN failed f USING (endpoint_id)) b
   WHERE e.id = b.endpoint_id AND ${FAILING_SINCE_AFTER} IS DISTINCT FROM e.failing_since
)
UPDATE sync.webhook_delivery_states s
   SET status = r.state_status, attempts_made = r.attempt, next_attempt_at = r.next_attempt_at,
       lease_until = NULL, last_error = r.error,
       finished_at = CASE WHEN r.state_status = 'pending' THEN NULL ELSE r.attempted_at END,
       updated_at = r.attempted_at
  FROM live r
 WHERE s.endpoint_id = r.endpoint_id AND s.event_id = r.event_id AND s.series = r.series
   AND s.status = 'pending' AND s.attempts_made = r.attempt - 1`;
