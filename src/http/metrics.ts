import { type Gauge, Histogram } from 'prom-client';
import { counter, gauge, type Series, scrapedGauge } from './metricKinds.ts';
import { metricsRegistry } from './registry.ts';

export { metricsRegistry } from './registry.ts';

type DepthSource = () => Promise<Array<{ queue: string; state: string; count: number }>>;
type LagSource = () => Promise<Array<{ stream: string; scope: string; lagSeconds: number }>>;
type EndpointStateSource = () => Promise<Array<{ state: 'enabled' | 'disabled'; count: number }>>;
type ReadinessSource = () => Promise<Array<{ check: string; ready: boolean }>>;
/** Per endpoint: the figures of `webhooks stats` over its default window (24 h), and who disabled it. */
export interface EndpointFigures {
  endpoint: string;
  enabled: boolean;
  disabledBy: 'failure' | 'operator' | null;
  attempts: number;
  successRate: number | null;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  p50Ms: number | null;
  p95Ms: number | null;
}
type EndpointFiguresSource = () => Promise<EndpointFigures[]>;
let endpointFiguresSource: EndpointFiguresSource | undefined;
let queueDepthSource: DepthSource | undefined;
let lagSource: LagSource | undefined;
let endpointStateSource: EndpointStateSource | undefined;
let readinessSource: ReadinessSource | undefined;

/** Sets where queue depths are read at scrape time (the worker registers its queues). */
export function setQueueDepthSource(source: DepthSource | undefined): void {
  queueDepthSource = source;
}

/** Sets where per stream and scope lag is read at scrape time (typically sync.cursors). */
export function setStreamLagSource(source: LagSource | undefined): void {
  lagSource = source;
}

/** Sets where webhook endpoint counts by state are read at scrape time (sync.webhook_endpoints). */
export function setEndpointStateSource(source: EndpointStateSource | undefined): void {
  endpointStateSource = source;
}

/**
 * Sets where per-endpoint delivery figures are read at scrape time (sync.webhook_deliveries). Every
 * per-endpoint gauge reads it, so the source should answer one scrape's calls from one query.
 */
export function setEndpointFiguresSource(source: EndpointFiguresSource | undefined): void {
  endpointFiguresSource = source;
}

/**
 * A gauge with one series per endpoint, rebuilt at every scrape from the figures source: an endpoint
 * removed (or whose labels changed) disappears instead of keeping its last value. Postgres away:
 * the scrape shows no series rather than failing (fulfillment_ready says why).
 */
function endpointGauge(
  name: string,
  help: string,
  value: (figures: EndpointFigures) => number | null,
  extraLabel?: { name: 'reason'; of: (figures: EndpointFigures) => string },
): Gauge<string> {
  const labelNames = extraLabel ? ['endpoint', extraLabel.name] : ['endpoint'];
  const read = async (): Promise<Series<string>[] | undefined> =>
    (await endpointFiguresSource?.())?.flatMap((figures) => {
      const v = value(figures);
      if (v === null) return [];
      const labels: Record<string, string> = { endpoint: figures.endpoint };
      if (extraLabel) labels[extraLabel.name] = extraLabel.of(figures);
      return [[labels, v]];
    });
  return scrapedGauge(name, help, labelNames, read, { replaceSeries: true });
}

const seconds = (date: Date | null) => (date ? date.getTime() / 1000 : null);

/** Sets the readiness checks (postgres, redis, schedules) run at scrape time, as /readyz runs them. */
export function setReadinessSource(source: ReadinessSource | undefined): void {
  readinessSource = source;
}

/** Every metric of the service, labelled as the issue lists them. */
export const metrics = {
  syncRuns: counter(
    'fulfillment_sync_runs_total',
    'Sync runs by stream and outcome (succeeded, failed, skipped).',
    ['stream', 'outcome'],
  ),
  rows: counter(
    'fulfillment_sync_rows_total',
    'Rows processed by stream and outcome (inserted, updated, unchanged, rejected).',
    ['stream', 'outcome'],
  ),
  vanishChecksSkipped: counter(
    'fulfillment_sync_vanish_checks_skipped_total',
    'Inventory snapshots whose vanish detection was suspended (a rejected row whose key cannot be read), by stream and scope: rows that truly vanished stay unzeroed until a snapshot without such a row.',
    ['stream', 'scope'],
  ),
  vanishWithheld: counter(
    'fulfillment_vanish_withheld_total',
    'Answers whose large shrink (every row of the scope, or half or more of at least 10, missing; for a detail answer, any stored child of its record) no further read confirmed, by stream and scope: nothing of it vanished, the rows stay until a run confirms it (sync.runs.vanish_withheld has the rows kept).',
    ['stream', 'scope'],
  ),
  apiCalls: counter('fulfillment_api_calls_total', 'Upstream API calls by operation and HTTP status.', [
    'operation',
    'status',
  ]),
  runCalls: gauge(
    'fulfillment_sync_run_api_calls',
    'Upstream calls the last run of each stream and scope made: the cost of one cycle.',
    ['stream', 'scope'],
  ),
  apiErrors: counter(
    'fulfillment_api_errors_total',
    'Failed upstream API calls by operation and status (or network error kind).',
    ['operation', 'status'],
  ),
  upstreamLatency: new Histogram({
    name: 'fulfillment_upstream_latency_seconds',
    help: 'Upstream API call latency by operation.',
    labelNames: ['operation'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [metricsRegistry],
  }),
  streamLag: scrapedGauge(
    'fulfillment_stream_lag_seconds',
    'How far each stream and scope lags behind now (since its last successful run).',
    ['stream', 'scope'],
    async () =>
      (await lagSource?.())?.map(({ stream, scope, lagSeconds }) => [{ stream, scope }, lagSeconds]),
  ),
  events: counter('fulfillment_events_total', 'Derived events written to the outbox, by type.', ['type']),
  webhookDeliveries: counter(
    'fulfillment_webhook_deliveries_total',
    'Webhook delivery attempts by outcome (delivered, retried, failed).',
    ['outcome'],
  ),
  streamCadence: gauge(
    'fulfillment_stream_cadence_seconds',
    'Configured cadence of each scheduled stream (FULFILLMENT_STREAMS cadenceMinutes), for lag alerts.',
    ['stream'],
  ),
  webhookEndpoints: scrapedGauge(
    'fulfillment_webhook_endpoints',
    'Webhook endpoints by state (enabled, disabled); disabled ones (a 410, or five days of failures) get nothing.',
    ['state'],
    async () => {
      if (!endpointStateSource) return undefined;
      // Both states always have a series, 0 when no endpoint is in it.
      const counts = new Map<string, number>([
        ['enabled', 0],
        ['disabled', 0],
      ]);
      for (const { state, count } of await endpointStateSource()) counts.set(state, count);
      return [...counts].map(([state, count]) => [{ state }, count]);
    },
  ),
  webhookEndpointDisabled: endpointGauge(
    'fulfillment_webhook_endpoint_disabled',
    "1 when the endpoint is disabled, 0 when enabled; reason: 'failure' (a 410 Gone or days of failed deliveries), 'operator' (webhooks disable) or '' (enabled). Alert on reason=\"failure\" only.",
    (f) => (f.enabled ? 0 : 1),
    { name: 'reason', of: (f) => (f.enabled ? '' : (f.disabledBy ?? 'failure')) },
  ),
  webhookEndpointAttempts: endpointGauge(
    'fulfillment_webhook_endpoint_attempts_24h',
    'Delivery attempts to each endpoint in the last 24 hours (webhooks stats).',
    (f) => f.attempts,
  ),
  webhookEndpointSuccessRatio: endpointGauge(
    'fulfillment_webhook_endpoint_success_ratio_24h',
    'Share of attempts to each endpoint that succeeded (2xx) in the last 24 hours; absent without attempts.',
    (f) => f.successRate,
  ),
  webhookEndpointLastSuccess: endpointGauge(
    'fulfillment_webhook_endpoint_last_success_timestamp_seconds',
    'When each endpoint last answered a delivery with a 2xx (Unix seconds); absent if never.',
    (f) => seconds(f.lastSuccessAt),
  ),
  webhookEndpointLastFailure: endpointGauge(
    'fulfillment_webhook_endpoint_last_failure_timestamp_seconds',
    'When a delivery to each endpoint last failed (Unix seconds); absent if never.',
    (f) => seconds(f.lastFailureAt),
  ),
  webhookEndpointDurationP50: endpointGauge(
    'fulfillment_webhook_endpoint_duration_p50_seconds_24h',
    'Median attempt duration per endpoint in the last 24 hours; absent without attempts.',
    (f) => (f.p50Ms === null ? null : f.p50Ms / 1000),
  ),
  webhookEndpointDurationP95: endpointGauge(
    'fulfillment_webhook_endpoint_duration_p95_seconds_24h',
    '95th percentile attempt duration per endpoint in the last 24 hours; absent without attempts.',
    (f) => (f.p95Ms === null ? null : f.p95Ms / 1000),
  ),
  ready: scrapedGauge(
    'fulfillment_ready',
    'Readiness of each dependency as /readyz checks it (postgres, redis, schedules): 1 ready, 0 not.',
    ['check'],
    async () => (await readinessSource?.())?.map(({ check, ready }) => [{ check }, ready ? 1 : 0]),
  ),
  prunedRows: counter(
    'fulfillment_retention_pruned_rows_total',
    'Bookkeeping rows removed by the pruner, by table (RETENTION_*_DAYS).',
    ['table'],
  ),
  pruneRuns: counter(
    'fulfillment_retention_prune_runs_total',
    'Prunes by outcome: completed, interrupted (a busy lock or a stop; the next carries on), skipped (another pruner held the lock), failed.',
    ['outcome'],
  ),
  pruneDuration: new Histogram({
    name: 'fulfillment_retention_prune_duration_seconds',
    help: 'How long a prune (all tables, in batches) took.',
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
    registers: [metricsRegistry],
  }),
  queueDepth: scrapedGauge(
    'fulfillment_queue_depth',
    'Jobs per queue and state (waiting, active, delayed, failed).',
    ['queue', 'state'],
    async () => (await queueDepthSource?.())?.map(({ queue, state, count }) => [{ queue, state }, count]),
  ),
};
