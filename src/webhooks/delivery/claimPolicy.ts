/**
 * The rules by which a claim hands out attempts, each a named SQL piece over the endpoint `e`
 * (sync.webhook_endpoints) with the claim's parameters: $1 now, $2 the default concurrency
 * (WEBHOOK_ENDPOINT_CONCURRENCY), $3 the claim's limit. claim.ts assembles them.
 */

/**
 * How long an endpoint fails without a success before it is probed (one attempt at a time, one a
 * second). Not at its first failure: a receiver that fails some requests but answers others (a
 * flaky one, or one shedding load) clears its failure run many times a second and keeps its
 * concurrency; probing it at once cut such a receiver to a few deliveries a second (chaos
 * scenario 5: 357 of 960 events delivered in 3 minutes). A dead one is probed after this.
 */
export const PROBE_AFTER_MS = 10_000;

/**
 * Probe: the endpoint has failed without a success for PROBE_AFTER_MS. Its retries come slowly
 * anyway, and a dead endpoint's quick failures or a hanging one's timeouts must not take the
 * worker's time from the others.
 */
export const PROBED = `(e.failing_since IS NOT NULL AND e.failing_since <= $1::timestamptz - interval '${PROBE_AFTER_MS / 1000} seconds')`;

/** Pause: the endpoint is not paused (Retry-After) at $1; a paused endpoint starts nothing. */
export const NOT_PAUSED = `(e.paused_until IS NULL OR e.paused_until <= $1::timestamptz)`;

/** Concurrency: attempts the endpoint may have in flight across all workers (1 while probed). */
export const CONCURRENCY = `(CASE WHEN ${PROBED} THEN 1 ELSE COALESCE(e.max_concurrency, $2::int) END)`;

/** Pacing rate: attempts per second the endpoint may start (1 while probed); null: not paced. */
export const PACING_RATE = `(CASE WHEN ${PROBED} THEN 1 ELSE e.rate_limit_per_second END)`;

/**
 * Pacing start: where the endpoint's pacing stands, but no earlier than one second ago (the burst
 * a quiet endpoint may send). Attempts are counted from here, both when the claim asks how many may
 * start (PACING_ALLOWANCE) and when it moves the pacing past those it started (pacedAfter).
 */
export const PACING_START = `GREATEST(e.next_send_at, $1::timestamptz - interval '1 second')`;

/**
 * Pacing allowance: how many attempts the endpoint's pacing lets start now, from PACING_START;
 * an unpaced endpoint is held to the limit.
 */
export const PACING_ALLOWANCE = `(CASE WHEN ${PACING_RATE} IS NULL THEN $3::int
  ELSE floor(extract(epoch FROM $1::timestamptz - ${PACING_START}) * ${PACING_RATE})::int END)`;

/** The endpoint's pacing once `started` (an SQL count) more attempts have used 1/rate seconds each. */
export function pacedAfter(started: string): string {
  return `(${PACING_START} + make_interval(secs => ${started}::float8 / ${PACING_RATE}))`;
}

/** When the endpoint's pacing lets its next attempt start (null: not paced). */
export const NEXT_PACED_AT = `(e.next_send_at + make_interval(secs => 1.0 / ${PACING_RATE}))`;

/**
 * Fairness, the order in which the claim's limit (the free slots of the process's
 * WEBHOOK_MAX_IN_FLIGHT) goes to the due deliveries `d` of different endpoints: least in flight
 * first. Each candidate ranks by its endpoint's attempts in flight (`d.busy`, every worker's) plus
 * its place in that endpoint's queue (`d.turn`), so a free slot goes to the endpoint with the
 * fewest in flight; among equals, to the delivery that has waited longest, then in an order that
 * changes with every claim. Chosen over round robin because it needs no state between claims or
 * workers, and because an endpoint that answers slowly holds its slots longer and so ranks later:
 * it cannot gather the shared slots, where round robin by attempts started would hand it one in
 * every turn and let it fill the cap.
 */
export const FAIR_ORDER = `d.busy + d.turn, d.next_attempt_at, md5(d.endpoint_id || $1::text)`;
