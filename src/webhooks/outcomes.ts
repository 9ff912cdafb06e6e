import type { PoolClient } from 'pg';
import type { AttemptResult } from './attempt.ts';
import type { AttemptStatus } from './deliveries.ts';
import type { DeliveryKey } from './deliveryStates.ts';
import { type Endpoint, updateEndpointHealth } from './endpoints.ts';
import type { HealthVerdict } from './health.ts';
import { pauseAfter, pauseEndpoint } from './pause.ts';

/** One attempt's outcome to store: the attempt row, the delivery's next state, the endpoint's health. */
export interface OutcomeRecord {
  job: DeliveryKey;
  endpoint: Pick<Endpoint, 'id' | 'failingSince'>;
  attempt: number;
  status: AttemptStatus;
  result: AttemptResult;
  /** When the next attempt is due (status 'failed'); null otherwise. */
  nextAttemptAt: Date | null;
  verdict: HealthVerdict;
  attemptedAt: Date;
}

/** Stores outcomes; resolves once they are committed. */
export type RecordOutcome = (record: OutcomeRecord) => Promise<void>;

/**
 * Stores outcomes with a group commit: outcomes that finish while a commit is under way wait for
 * the next one and go in together, in one transaction of a few statements whatever their number.
 * At a few hundred attempts a second this is what keeps Postgres round trips from setting the
 * pace. Each outcome's promise settles with its own commit.
 */
export function createOutcomeRecorder(db: { connect(): Promise<PoolClient> }): RecordOutcome {
  let waiting: Array<{ record: OutcomeRecord; resolve: () => void; reject: (error: Error) => void }> = [];
  let draining = false;
  const drain = async () => {
    draining = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      try {
        await writeOutcomes(
          db,
          batch.map((entry) => entry.record),
        );
        for (const entry of batch) entry.resolve();
      } catch (error) {
        for (const entry of batch) entry.reject(error as Error);
      }
    }
    draining = false;
  };
  return (record) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ record, resolve, reject });
      if (!draining) void drain();
    });
}

/**
 * Commits outcomes together: every attempt row, every delivery's next state (only the sender
 * whose attempt is the next one moves it: a sender that lost its lease moves nothing), each
 * endpoint's health where it changed, and the pause a 429/503 Retry-After asked for.
 */
export async function writeOutcomes(
  db: { connect(): Promise<PoolClient> },
  records: readonly OutcomeRecord[],
): Promise<void> {
  if (records.length === 0) return;
  const rows = JSON.stringify(
    records.map((r) => ({
      endpoint_id: r.endpoint.id,
      event_id: r.job.eventId,
      series: r.job.series ?? '',
      attempt: r.attempt,
      status: r.status,
      state_status: r.status === 'failed' ? 'pending' : r.status,
      response_code: r.result.statusCode,
      duration_ms: r.result.durationMs,
      error: r.result.error,
      response_body: r.result.responseBody,
      attempted_at: r.attemptedAt.toISOString(),
      next_attempt_at: r.nextAttemptAt?.toISOString() ?? null,
    })),
  );
  const health = healthChanges(records);
  const paused = pauses(records);
  const client = await db.connect();
  // Usually every attempt succeeded: one statement, atomic on its own, is the whole write.
  const alone = health.size === 0 && paused.size === 0;
  try {
    if (!alone) await client.query('BEGIN');
    await client.query(WRITE_SQL, [rows]);
    for (const [endpointId, verdict] of health) await updateEndpointHealth(client, endpointId, verdict);
    for (const [endpointId, until] of paused) await pauseEndpoint(client, endpointId, until);
    if (!alone) await client.query('COMMIT');
  } catch (error) {
    if (!alone) await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}

const RECORD_COLUMNS = `endpoint_id text, event_id text, series text, attempt int, status text,
  state_status text, response_code int, duration_ms int, error text, response_body text,
  attempted_at timestamptz, next_attempt_at timestamptz`;

/** $1: the outcomes as JSON. Stores the attempt rows and moves the deliveries, in one statement. */
const WRITE_SQL = `
WITH r AS (SELECT * FROM jsonb_to_recordset($1::jsonb) AS r(${RECORD_COLUMNS})),
attempts AS (
  INSERT INTO sync.webhook_deliveries
    (endpoint_id, event_id, attempt, status, response_code, duration_ms, error, response_body,
     attempted_at, next_attempt_at, series)
  SELECT endpoint_id, event_id, attempt, status, response_code, duration_ms, error, response_body,
         attempted_at, next_attempt_at, series
    FROM r
)
UPDATE sync.webhook_delivery_states s
   SET status = r.state_status, attempts_made = r.attempt, next_attempt_at = r.next_attempt_at,
       lease_until = NULL, last_error = r.error,
       finished_at = CASE WHEN r.state_status = 'pending' THEN NULL ELSE r.attempted_at END,
       updated_at = r.attempted_at
  FROM r
 WHERE s.endpoint_id = r.endpoint_id AND s.event_id = r.event_id AND s.series = r.series
   AND s.status = 'pending' AND s.attempts_made = r.attempt - 1`;

/**
 * Each endpoint's health after the batch, where it changed: the last attempt's verdict decides
 * the failure run, and any disable reason in the batch disables. Pure.
 */
export function healthChanges(records: readonly OutcomeRecord[]): Map<string, HealthVerdict> {
  const last = new Map<string, OutcomeRecord>();
  const disable = new Map<string, string>();
  for (const record of records) {
    last.set(record.endpoint.id, record);
    if (record.verdict.disableReason) disable.set(record.endpoint.id, record.verdict.disableReason);
  }
  const changes = new Map<string, HealthVerdict>();
  for (const [id, record] of last) {
    const disableReason = disable.get(id) ?? null;
    const failingSince = record.verdict.failingSince;
    if (record.endpoint.failingSince?.getTime() !== failingSince?.getTime() || disableReason) {
      changes.set(id, { failingSince, disableReason });
    }
  }
  return changes;
}

/** The longest pause each endpoint asked for in the batch. Pure. */
function pauses(records: readonly OutcomeRecord[]): Map<string, Date> {
  const until = new Map<string, Date>();
  for (const record of records) {
    const at = pauseAfter(record.result, record.attemptedAt);
    const current = until.get(record.endpoint.id);
    if (at && (!current || at > current)) until.set(record.endpoint.id, at);
  }
  return until;
}
