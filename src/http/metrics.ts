import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The one Prometheus registry of the process; `/metrics` serves it. Other modules import `metrics`. */
export const metricsRegistry = new Registry();

type DepthSource = () => Promise<Array<{ queue: string; state: string; count: number }>>;
type LagSource = () => Promise<Array<{ stream: string; scope: string; lagSeconds: number }>>;
type EndpointStateSource = () => Promise<Array<{ state: 'enabled' | 'disabled'; count: number }>>;
type ReadinessSource = () => Promise<Array<{ check: string; ready: boolean }>>;
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

/** Sets the readiness checks (postgres, redis, schedules) run at scrape time, as /readyz runs them. */
export function setReadinessSource(source: ReadinessSource | undefined): void {
  readinessSource = source;
}

/** Every metric of the service, labelled as the issue lists them. */
export const metrics = {
  syncRuns: new Counter({
    name: 'fulfillment_sync_runs_total',
    help: 'Sync runs by stream and outcome (succeeded, failed, skipped).',
    labelNames: ['stream', 'outcome'] as const,
    registers: [metricsRegistry],
  }),
  rows: new Counter({
    name: 'fulfillment_sync_rows_total',
    help: 'Rows processed by stream and outcome (inserted, updated, unchanged, rejected).',
    labelNames: ['stream', 'outcome'] as const,
    registers: [metricsRegistry],
  }),
  vanishChecksSkipped: new Counter({
    name: 'fulfillment_sync_vanish_checks_skipped_total',
    help: 'Inventory snapshots whose vanish detection was suspended (a rejected row whose key cannot be read), by stream and scope: rows that truly vanished stay unzeroed until a snapshot without such a row.',
    labelNames: ['stream', 'scope'] as const,
    registers: [metricsRegistry],
  }),
  apiCalls: new Counter({
    name: 'fulfillment_api_calls_total',
    help: 'Upstream API calls by operation and HTTP status.',
    labelNames: ['operation', 'status'] as const,
    registers: [metricsRegistry],
  }),
  runCalls: new Gauge({
    name: 'fulfillment_sync_run_api_calls',
    help: 'Upstream calls the last run of each stream and scope made: the cost of one cycle.',
    labelNames: ['stream', 'scope'] as const,
    registers: [metricsRegistry],
  }),
  apiErrors: new Counter({
    name: 'fulfillment_api_errors_total',
    help: 'Failed upstream API calls by operation and status (or network error kind).',
    labelNames: ['operation', 'status'] as const,
    registers: [metricsRegistry],
  }),
  upstreamLatency: new Histogram({
    name: 'fulfillment_upstream_latency_seconds',
    help: 'Upstream API call latency by operation.',
    labelNames: ['operation'] as const,
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [metricsRegistry],
  }),
  streamLag: new Gauge({
    name: 'fulfillment_stream_lag_seconds',
    help: 'How far each stream and scope lags behind now (since its last successful run).',
    labelNames: ['stream', 'scope'] as const,
    registers: [metricsRegistry],
    async collect() {
      if (!lagSource) return;
      try {
        for (const { stream, scope, lagSeconds } of await lagSource())
          this.set({ stream, scope }, lagSeconds);
      } catch {
        // A scrape must not fail because Postgres is briefly away; the gauge keeps its last values.
      }
    },
  }),
  events: new Counter({
    name: 'fulfillment_events_total',
    help: 'Derived events written to the outbox, by type.',
    labelNames: ['type'] as const,
    registers: [metricsRegistry],
  }),
  webhookDeliveries: new Counter({
    name: 'fulfillment_webhook_deliveries_total',
    help: 'Webhook delivery attempts by outcome (delivered, retried, failed).',
    labelNames: ['outcome'] as const,
    registers: [metricsRegistry],
  }),
  streamCadence: new Gauge({
    name: 'fulfillment_stream_cadence_seconds',
    help: 'Configured cadence of each scheduled stream (FULFILLMENT_STREAMS cadenceMinutes), for lag alerts.',
    labelNames: ['stream'] as const,
    registers: [metricsRegistry],
  }),
  webhookEndpoints: new Gauge({
    name: 'fulfillment_webhook_endpoints',
    help: 'Webhook endpoints by state (enabled, disabled); disabled ones (a 410, or five days of failures) get nothing.',
    labelNames: ['state'] as const,
    registers: [metricsRegistry],
    async collect() {
      if (!endpointStateSource) return;
      try {
        const counts = new Map<string, number>([
          ['enabled', 0],
          ['disabled', 0],
        ]);
        for (const { state, count } of await endpointStateSource()) counts.set(state, count);
        for (const [state, count] of counts) this.set({ state }, count);
      } catch {
        // Postgres away: keep the last values; fulfillment_ready says so.
      }
    },
  }),
  ready: new Gauge({
    name: 'fulfillment_ready',
    help: 'Readiness of each dependency as /readyz checks it (postgres, redis, schedules): 1 ready, 0 not.',
    labelNames: ['check'] as const,
    registers: [metricsRegistry],
    async collect() {
      if (!readinessSource) return;
      for (const { check, ready } of await readinessSource()) this.set({ check }, ready ? 1 : 0);
    },
  }),
  prunedRows: new Counter({
    name: 'fulfillment_retention_pruned_rows_total',
    help: 'Bookkeeping rows removed by the pruner, by table (RETENTION_*_DAYS).',
    labelNames: ['table'] as const,
    registers: [metricsRegistry],
  }),
  pruneRuns: new Counter({
    name: 'fulfillment_retention_prune_runs_total',
    help: 'Prunes by outcome: completed, interrupted (a busy lock or a stop; the next carries on), skipped (another pruner held the lock), failed.',
    labelNames: ['outcome'] as const,
    registers: [metricsRegistry],
  }),
  pruneDuration: new Histogram({
    name: 'fulfillment_retention_prune_duration_seconds',
    help: 'How long a prune (all tables, in batches) took.',
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900, 3600],
    registers: [metricsRegistry],
  }),
  queueDepth: new Gauge({
    name: 'fulfillment_queue_depth',
    help: 'Jobs per queue and state (waiting, active, delayed, failed).',
    labelNames: ['queue', 'state'] as const,
    registers: [metricsRegistry],
    async collect() {
      if (!queueDepthSource) return;
      try {
        for (const { queue, state, count } of await queueDepthSource()) this.set({ queue, state }, count);
      } catch {
        // Redis away: keep the last values rather than failing the scrape; /readyz reports it.
      }
    },
  }),
};
