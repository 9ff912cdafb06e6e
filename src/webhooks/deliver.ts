import type { Queryable } from '../db/queryable.ts';
import { EVENT_COLUMNS, type EventRow, eventFromRow } from '../events/eventRow.ts';
import { type AttemptResult, attemptDelivery, type FetchLike } from './attempt.ts';
import { recordAttempt } from './deliveries.ts';
import { getEndpoint, updateEndpointHealth } from './endpoints.ts';
import { judgeAttempt } from './health.ts';
import { maxAttempts, nextRetryDelay, STANDARD_SCHEDULE_MS } from './schedule.ts';

/** One event to one endpoint. */
export interface DeliveryJob {
  endpointId: string;
  eventId: string;
  /** Set for `webhooks replay`: a fresh series of attempts with the same webhook-id. */
  replayOf?: string | undefined;
}

/** What delivery needs from the outside world. */
export interface DeliverDeps {
  db: Queryable;
  fetch?: FetchLike;
  now?: () => Date;
  timeoutMs?: number;
  /** Retry waits (STANDARD_SCHEDULE_MS unless shortened for tests). */
  schedule?: readonly number[];
  /** Disable an endpoint after failing this long without a success. */
  disableAfterMs?: number;
  random?: () => number;
  /** Told every attempt's outcome (metrics); never of a skipped job, which sent nothing. */
  onOutcome?: (outcome: DeliverOutcome) => void;
}

export type DeliverOutcome =
  | { kind: 'delivered'; statusCode: number | null }
  | { kind: 'retry'; delayMs: number; error: string }
  | { kind: 'gave_up'; reason: string }
  | { kind: 'skipped'; reason: string };

/**
 * Attempt number `attempt` (1-based) of one delivery: sends the stored event signed with the
 * endpoint's secret, records the attempt, updates the endpoint's health (410 or days of failures
 * disable it) and says whether and when to retry. Never throws for receiver failures.
 */
export async function deliverEvent(
  deps: DeliverDeps,
  job: DeliveryJob,
  attempt: number,
): Promise<DeliverOutcome> {
  const now = deps.now ?? (() => new Date());
  const schedule = deps.schedule ?? STANDARD_SCHEDULE_MS;
  const endpoint = await getEndpoint(deps.db, job.endpointId);
  if (!endpoint) return { kind: 'skipped', reason: 'endpoint removed' };
  if (!endpoint.enabled)
    return { kind: 'skipped', reason: `endpoint disabled: ${endpoint.disabledReason ?? 'by user'}` };
  const { rows } = await deps.db.query(`SELECT ${EVENT_COLUMNS} FROM sync.events WHERE id = $1`, [
    job.eventId,
  ]);
  const row = rows[0] as EventRow | undefined;
  if (!row) return { kind: 'skipped', reason: 'event no longer stored' };

  const result = await attemptDelivery({
    url: endpoint.url,
    secret: endpoint.secret,
    msgId: row.id,
    body: JSON.stringify(eventFromRow(row)),
    fetch: deps.fetch,
    // Signed with real time, never the injected clock: receivers check the timestamp against theirs.
    timeoutMs: deps.timeoutMs,
  });
  const attemptedAt = now();
  const verdict = judgeAttempt(endpoint, result, attemptedAt, deps.disableAfterMs);
  const outcome = decide(result, verdict.disableReason, attempt, schedule, deps.random);
  await recordAttempt(deps.db, {
    endpointId: endpoint.id,
    eventId: row.id,
    attempt,
    status: outcome.kind === 'delivered' ? 'succeeded' : outcome.kind === 'retry' ? 'failed' : 'gave_up',
    result,
    attemptedAt,
    nextAttemptAt: outcome.kind === 'retry' ? new Date(attemptedAt.getTime() + outcome.delayMs) : null,
  });
  if (endpoint.failingSince?.getTime() !== verdict.failingSince?.getTime() || verdict.disableReason) {
    await updateEndpointHealth(deps.db, endpoint.id, verdict);
  }
  deps.onOutcome?.(outcome);
  return outcome;
}

function decide(
  result: AttemptResult,
  disableReason: string | null,
  attempt: number,
  schedule: readonly number[],
  random: (() => number) | undefined,
): DeliverOutcome {
  if (result.ok) return { kind: 'delivered', statusCode: result.statusCode };
  if (disableReason) return { kind: 'gave_up', reason: `endpoint disabled: ${disableReason}` };
  const delayMs =
    attempt < maxAttempts(schedule)
      ? nextRetryDelay(attempt, { schedule, random, retryAfterMs: result.retryAfterMs })
      : undefined;
  if (delayMs === undefined)
    return { kind: 'gave_up', reason: `${attempt} attempts failed; last: ${result.error}` };
  return { kind: 'retry', delayMs, error: result.error ?? 'failed' };
}
