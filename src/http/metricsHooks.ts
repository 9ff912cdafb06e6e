import type { CallReport } from '../api/index.ts';
import type { StreamRunResult } from '../sync/types.ts';
import type { AttemptFacts, DeliverOutcome } from '../webhooks/delivery/deliver.ts';
import { recordDeliveredLatency } from './deliveryMetrics.ts';
import { freshnessMetrics } from './freshnessMetrics.ts';
import { metrics } from './metrics.ts';

/**
 * Adapters from the domain's reports to the Prometheus metrics: the API client, the event sink,
 * the engine runner and webhook delivery take these as plain callbacks, so none of them imports
 * prom-client.
 */

/**
 * Counts one finished run of a stream and scope: the run by outcome, its rows by outcome, the
 * cost of its cycle in upstream calls, the snapshots whose vanish detection it suspended, the
 * answers whose unconfirmed shrink it withheld, and how long it took (`timing`, when the caller
 * timed it; a skipped run did no work to time).
 */
export function recordRunResult(
  result: StreamRunResult,
  timing?: { durationMs: number; mode: 'incremental' | 'backfill' },
): void {
  const stream = result.stream;
  metrics.syncRuns.inc({ stream, outcome: result.status });
  if (timing && result.status !== 'skipped') {
    freshnessMetrics.runDuration.observe({ stream, mode: timing.mode }, timing.durationMs / 1000);
  }
  if (result.status !== 'skipped') metrics.runCalls.set({ stream, scope: result.scope.id }, result.apiCalls);
  for (const outcome of ['inserted', 'updated', 'unchanged', 'rejected'] as const) {
    if (result[outcome] > 0) metrics.rows.inc({ stream, outcome }, result[outcome]);
  }
  if (result.vanishChecksSkipped)
    metrics.vanishChecksSkipped.inc({ stream, scope: result.scope.id }, result.vanishChecksSkipped);
  if (result.vanishWithheld)
    metrics.vanishWithheld.inc({ stream, scope: result.scope.id }, result.vanishWithheld.answers);
}

/** Counts one upstream HTTP attempt (client `onCall`): calls by operation and status, errors, latency. */
export function recordApiCall(report: CallReport): void {
  // A call that got no HTTP answer is labelled by what failed (network, timeout...).
  const status = report.status !== undefined ? String(report.status) : (report.error?.kind ?? 'none');
  metrics.apiCalls.inc({ operation: report.operation, status });
  if (report.error) metrics.apiErrors.inc({ operation: report.operation, status });
  metrics.upstreamLatency.observe({ operation: report.operation }, report.durationMs / 1000);
}

/** Counts events newly written to the outbox, one type per inserted event (event sink `onWritten`). */
export function recordEventsWritten(types: readonly string[]): void {
  const byType = new Map<string, number>();
  for (const type of types) byType.set(type, (byType.get(type) ?? 0) + 1);
  for (const [type, count] of byType) metrics.events.inc({ type }, count);
}

const DELIVERY_LABEL: Record<DeliverOutcome['kind'], string | undefined> = {
  delivered: 'delivered',
  retry: 'retried',
  gave_up: 'failed',
  // Nothing was sent (endpoint removed or disabled, event gone, already delivered): not a delivery
  // attempt.
  skipped: undefined,
};

/**
 * Counts one webhook delivery attempt by outcome: delivered, retried or failed (webhook
 * `onOutcome`); a delivered one also times the change's way to its subscriber.
 */
export function recordWebhookOutcome(outcome: DeliverOutcome, attempt?: AttemptFacts): void {
  const label = DELIVERY_LABEL[outcome.kind];
  if (label) metrics.webhookDeliveries.inc({ outcome: label });
  if (outcome.kind === 'delivered' && attempt) recordDeliveredLatency(attempt);
}
