import type { PoolClient } from 'pg';
import type { Queryable } from '../../db/queryable.ts';
import { eventFromRow } from '../../events/eventRow.ts';
import { signingSecrets } from '../endpoints/endpointSecrets.ts';
import { judgeAttempt } from '../endpoints/health.ts';
import type { Resolve } from '../endpoints/safeLookup.ts';
import type { TargetPolicy } from '../endpoints/targetPolicy.ts';
import { type DeliveryKey, finishWithoutAttempt } from './deliveryStates.ts';
import type { RecordOutcome } from './outcomes/outcomes.ts';
import { type AttemptResult, attemptDelivery, DELIVERY_TIMEOUT_MS } from './post/attempt.ts';
import { maxAttempts, nextRetryDelay, STANDARD_SCHEDULE_MS } from './schedule.ts';
import type { SendContext } from './sendContext.ts';

/** One delivery: an event to an endpoint, in a series ('' unless a replay or a recover). */
export type DeliveryJob = DeliveryKey;

/** The database a delivery needs: queries, and a connection for the short transaction that records an attempt. */
export interface DeliveryDb extends Queryable {
  connect(): Promise<PoolClient>;
}

/** What delivery needs from the outside world. */
export interface DeliverDeps {
  db: DeliveryDb;
  /** Which targets may be reached (WEBHOOK_ALLOW_PRIVATE_TARGETS). */
  policy: TargetPolicy;
  /** Host name resolution (the system resolver unless a test injects one). */
  resolve?: Resolve;
  /** The clock of due times, leases and secret overlaps; signatures always carry real time. */
  now?: () => Date;
  timeoutMs?: number;
  /** Retry waits (STANDARD_SCHEDULE_MS unless shortened for tests). */
  schedule?: readonly number[];
  /** Stores outcomes (the dispatcher's group commit, unless one is given). */
  recordOutcome?: RecordOutcome;
  /** Told every attempt's outcome (metrics); never of a skipped or busy delivery, which sent nothing. */
  onOutcome?: (outcome: DeliverOutcome, attempt: AttemptFacts) => void;
}

/** What an attempt was about and when its answer came: the latency metrics read it. */
export interface AttemptFacts {
  /** '' for the relay's delivery; a replay or recover id otherwise. */
  series: string;
  eventType: string;
  occurredAt: Date;
  detectedAt: Date;
  /** When the receiver's answer (or the failure) came back. */
  answeredAt: Date;
}

/** What sending a claimed delivery needs: the deps, and where its outcome is stored. */
export type SendDeps = DeliverDeps & { recordOutcome: RecordOutcome };

export type DeliverOutcome =
  | { kind: 'delivered'; statusCode: number | null }
  | { kind: 'retry'; delayMs: number; nextAttempt: number; nextAttemptAt: Date; error: string }
  | { kind: 'gave_up'; reason: string }
  | { kind: 'skipped'; reason: string };

/** How long a sender holds a delivery: the attempt's timeout and a margin to record its outcome. */
export function leaseMsFor(deps: Pick<DeliverDeps, 'timeoutMs'>): number {
  return (deps.timeoutMs ?? DELIVERY_TIMEOUT_MS) + 45_000;
}

/**
 * Makes attempt `lease.attempt` of a delivery whose lease the dispatcher's claim took, with what
 * the claim read (`context`): skips it when the relay's delivery of the pair already succeeded
 * (or the endpoint was removed or disabled), sends the stored event signed with the endpoint's
 * secrets (two while a rotation overlaps), then hands the attempt, the next due time and the
 * endpoint's health to `recordOutcome` (the dispatcher's group commit). Never throws for receiver
 * failures.
 */
export async function sendLeased(
  deps: SendDeps,
  job: DeliveryJob,
  lease: { attempt: number; maxAttempts: number | null },
  context: SendContext,
): Promise<DeliverOutcome> {
  const now = deps.now ?? (() => new Date());
  const timeoutMs = deps.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const skip = async (reason: string): Promise<DeliverOutcome> => {
    await finishWithoutAttempt(deps.db, job, { status: 'skipped', reason, now: now() });
    return { kind: 'skipped', reason };
  };
  const endpoint = await context.endpoint(job.endpointId);
  if (!endpoint) return skip('endpoint removed');
  if (!endpoint.enabled) {
    return skip(`endpoint disabled: ${endpoint.disabledReason ?? 'by hand'}`);
  }
  // A relay that re-fanned an event out (its commit failed after the first delivery went out)
  // must not send it again; replays and recovers are asked for, so they do send.
  if (!job.series && (await context.delivered(job))) return skip('already delivered');
  const row = await context.event(job.eventId);
  if (!row) return skip('event no longer stored');

  const result = await attemptDelivery({
    url: endpoint.url,
    secrets: signingSecrets(endpoint, now()),
    msgId: row.id,
    body: JSON.stringify(eventFromRow(row)),
    customHeaders: endpoint.headers,
    policy: deps.policy,
    resolve: deps.resolve,
    timeoutMs,
  });
  const attemptedAt = now();
  const verdict = judgeAttempt(endpoint, result, attemptedAt);
  const allowed = lease.maxAttempts ?? maxAttempts(deps.schedule ?? STANDARD_SCHEDULE_MS);
  const outcome = decide(result, verdict.disableReason, lease.attempt, allowed, attemptedAt, deps);
  await deps.recordOutcome({
    job,
    endpoint,
    attempt: lease.attempt,
    status: outcome.kind === 'delivered' ? 'succeeded' : outcome.kind === 'retry' ? 'failed' : 'gave_up',
    result,
    nextAttemptAt: outcome.kind === 'retry' ? outcome.nextAttemptAt : null,
    verdict,
    attemptedAt,
  });
  deps.onOutcome?.(outcome, {
    series: job.series ?? '',
    eventType: row.type,
    occurredAt: new Date(row.occurred_at),
    detectedAt: new Date(row.detected_at),
    answeredAt: attemptedAt,
  });
  return outcome;
}

function decide(
  result: AttemptResult,
  disableReason: string | null,
  attempt: number,
  allowed: number,
  attemptedAt: Date,
  deps: DeliverDeps,
): DeliverOutcome {
  if (result.ok) return { kind: 'delivered', statusCode: result.statusCode };
  if (disableReason) return { kind: 'gave_up', reason: `endpoint disabled: ${disableReason}` };
  const delayMs =
    attempt < allowed
      ? nextRetryDelay(attempt, {
          schedule: deps.schedule ?? STANDARD_SCHEDULE_MS,
          retryAfterMs: result.retryAfterMs,
        })
      : undefined;
  if (delayMs === undefined) {
    return { kind: 'gave_up', reason: `${attempt} attempt(s) failed; last: ${result.error}` };
  }
  return {
    kind: 'retry',
    delayMs,
    nextAttempt: attempt + 1,
    nextAttemptAt: new Date(attemptedAt.getTime() + delayMs),
    error: result.error ?? 'failed',
  };
}
