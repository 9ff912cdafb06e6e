import { storableText } from '../../../api/storable.ts';
import type { OutcomeRecord } from './outcomeRecord.ts';

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
 * The group write, one statement whatever the number of outcomes ($1: `outcomeRows`), in two
 * forms: OUTCOMES_SQL.successes when every outcome is a success (the usual case, kept small: its
 * planning is most of its cost), OUTCOMES_SQL.mixed otherwise.
 *
 * - `kept`: the endpoints of the outcomes still stored, locked (KEY SHARE, as the foreign key
 *   would) for the statement; `attempts` stores the attempt rows of their outcomes only. An
 *   endpoint removed while its deliveries were in flight took them with it (their states are gone,
 *   so the rest of the statement finds nothing of it either): its outcomes are left out instead of
 *   failing everyone else's. (Events are not checked: one with a delivery pending, as every
 *   delivery in flight is, is never pruned.) The outcomes stay a plain recordset for the rest, so
 *   the planner estimates them as before: a join there made it probe them once per delivery.
 * - `health` keeps each endpoint's `failing_since` at the first failure after its latest success,
 *   by attempt time, against what is stored now rather than what the claim saw: a success ends a
 *   failure run that began at or before it; a failure starts one unless a success came after it
 *   (in this batch or already stored). An endpoint whose value does not change is not written, so
 *   a batch of successes of a healthy endpoint touches no endpoint row. It goes through `kept`, so
 *   that lock is taken before the row changes (data-modifying CTEs run last first, and a row this
 *   statement has changed can no longer be locked by it).
 * - The main UPDATE moves each delivery to its next state, only where this sender's attempt is
 *   the next one (a sender that lost its lease moves nothing).
 */
const HEAD = `
WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(${RECORD_COLUMNS})),
kept AS (
  SELECT e.id FROM sync.webhook_endpoints e WHERE e.id IN (SELECT endpoint_id FROM r) FOR KEY SHARE
),
attempts AS (
  INSERT INTO sync.webhook_deliveries
    (endpoint_id, event_id, attempt, status, response_code, duration_ms, error, response_body,
     attempted_at, next_attempt_at, series)
  SELECT endpoint_id, event_id, attempt, status, response_code, duration_ms, error, response_body,
         attempted_at, next_attempt_at, series
    FROM r WHERE r.endpoint_id IN (SELECT id FROM kept)
),`;

/** Health after successes only: each ends the failure run that began at or before it. */
const HEALTH_AFTER_SUCCESSES = `
health AS (
  UPDATE sync.webhook_endpoints e SET failing_since = NULL, updated_at = now()
    FROM (SELECT endpoint_id, max(attempted_at) AS at FROM r GROUP BY endpoint_id) s
   WHERE e.id = s.endpoint_id AND e.id IN (SELECT id FROM kept) AND e.failing_since <= s.at
)`;

/** Health after a batch with failures: the batch's latest success and the first failure after it. */
const HEALTH_AFTER_MIXED = `
succeeded AS (
  SELECT endpoint_id, max(attempted_at) FILTER (WHERE status = 'succeeded') AS at
    FROM r GROUP BY endpoint_id
),
failed AS (
  SELECT l.endpoint_id, min(l.attempted_at) AS at
    FROM r l JOIN succeeded s USING (endpoint_id)
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
   WHERE e.id = b.endpoint_id AND e.id IN (SELECT id FROM kept)
     AND ${FAILING_SINCE_AFTER} IS DISTINCT FROM e.failing_since
)`;

const MOVE_DELIVERIES = `
UPDATE sync.webhook_delivery_states s
   SET status = r.state_status, attempts_made = r.attempt, next_attempt_at = r.next_attempt_at,
       lease_until = NULL, last_error = r.error,
       finished_at = CASE WHEN r.state_status = 'pending' THEN NULL ELSE r.attempted_at END,
       updated_at = r.attempted_at
  FROM r
 WHERE s.endpoint_id = r.endpoint_id AND s.event_id = r.event_id AND s.series = r.series
   AND s.status = 'pending' AND s.attempts_made = r.attempt - 1`;

export const OUTCOMES_SQL = {
  successes: `${HEAD}${HEALTH_AFTER_SUCCESSES}${MOVE_DELIVERIES}`,
  mixed: `${HEAD}${HEALTH_AFTER_MIXED}${MOVE_DELIVERIES}`,
} as const;

/** The form of the group write for these outcomes. */
export function outcomesSql(records: readonly OutcomeRecord[]): string {
  return records.every((r) => r.status === 'succeeded') ? OUTCOMES_SQL.successes : OUTCOMES_SQL.mixed;
}
