import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { writeEvents } from '../../src/events/outbox.ts';
import { metricsRegistry } from '../../src/http/metrics.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { wireServiceMetricSources } from '../../src/worker/serviceMetricSources.ts';
import { linesOf, REPO_ROOT, spawnSourceCli } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { cleanupRedisPrefix, testRedisPrefix } from '../helpers/redis.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { LOCAL_RECEIVERS, startReceiver, testEvent } from '../webhooks/harness.ts';
import { PROMETHEUS_MISSING, type PrometheusServer, startPrometheus } from './prometheusServer.ts';
import { exportedFamilies, isExported, metricNamesIn } from './promql.ts';

/**
 * The Grafana board and the Prometheus alert rules under deploy/ query only metrics a running worker
 * really exports, read from its live /metrics; and every panel's query, evaluated by a real
 * Prometheus scraping a worker that synced and delivered a webhook, returns series.
 */

const deploy = (...parts: string[]) => path.join(REPO_ROOT, 'deploy', ...parts);
type Datasource = { type: string; uid: string };
const dashboardText = readFileSync(deploy('grafana/dashboards/fulfillment-sync.json'), 'utf8');
const dashboard = JSON.parse(dashboardText) as {
  uid: string;
  __inputs?: { name: string; type: string; pluginId: string }[];
  templating: {
    list: {
      name: string;
      type: string;
      query: string | { query: string };
      datasource?: Datasource;
      current?: { value: unknown };
    }[];
  };
  panels: {
    type: string;
    title: string;
    datasource?: Datasource;
    targets?: { expr: string; datasource?: Datasource }[];
  }[];
};
const alerts = parse(readFileSync(deploy('prometheus/alerts.yml'), 'utf8')) as {
  groups: { rules: { alert: string; expr: string }[] }[];
};
const dashboardExprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
const variable = (name: string) => dashboard.templating.list.find((v) => v.name === name);
/** A query variable's PromQL, e.g. `label_values(fulfillment_ready, instance)` gives `fulfillment_ready`. */
const variableQueries = dashboard.templating.list
  .filter((v) => v.type === 'query')
  .map((v) => (typeof v.query === 'string' ? v.query : v.query.query))
  .map((q) => /^label_values\((.*),\s*\w+\)$/.exec(q)?.[1] ?? q);
const alertRules = alerts.groups.flatMap((g) => g.rules);
const namesOf = (exprs: string[]) => new Set(exprs.flatMap(metricNamesIn));

let t: TestDatabase;
const prefix = testRedisPrefix('observability');
let exposition = '';
let endpointIds = { gone: '', paused: '' };
/** Each panel query (as Grafana sends it with every variable on All) and what Prometheus answered. */
const panelResults = new Map<string, { metric: Record<string, string>; value: string }[]>();
let prometheusSkipped = false;
/** The enabled endpoint the panels' webhook goes to. */
let deliveringEndpoint = '';

/**
 * Panels of failures whose labels exist only once one happened: an upstream error's operation and
 * HTTP status, a snapshot whose vanish detection was suspended. A healthy worker shows no data
 * there, which is what they should show; every other panel must have series.
 */
const FAILURE_ONLY_PANELS = ['fulfillment_api_errors_total', 'fulfillment_sync_vanish_checks_skipped_total'];

/** A panel's PromQL as Grafana sends it: every variable on All, a rate interval of a minute. */
function asGrafanaSends(expr: string): string {
  return expr.replaceAll('$__rate_interval', '1m').replace(/\$(instance|stream|scope)\b/g, '.+');
}

/**
 * With the worker running: Prometheus scrapes it, a webhook is delivered (a receiver of this test,
 * an event written as a sync writes one), and once Prometheus has seen the delivery and the
 * analytics refreshes, every panel query is evaluated.
 */
async function evaluatePanels(t: TestDatabase, workerPort: number): Promise<void> {
  const prometheus = await startPrometheus(`127.0.0.1:${workerPort}`);
  if (!prometheus) {
    prometheusSkipped = true;
    console.warn(PROMETHEUS_MISSING);
    return;
  }
  const receiver = await startReceiver();
  try {
    await seen(prometheus, 'fulfillment_ready');
    // The first sync of every sandbox scope of shipments (the board's data-age panel reads them).
    await waitFor(
      'the shipments of every sandbox account synced',
      async () => {
        const { rows } = await t.pool.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM sync.cursors WHERE stream = 'shipments' AND last_success_at IS NOT NULL`,
        );
        return rows[0]!.n >= 2;
      },
      90_000,
      100,
    );
    await seen(prometheus, 'fulfillment_stream_lag_seconds{stream="shipments"}');
    const endpoint = await addEndpoint(t.pool, { url: receiver.url('/hook') }, LOCAL_RECEIVERS);
    deliveringEndpoint = endpoint.id;
    receiver.on('/hook', endpoint.secret, () => ({ status: 204 }));
    const now = Date.now();
    await writeEvents(
      t.pool,
      [
        testEvent({
          occurredAt: new Date(now - 20_000).toISOString(),
          detectedAt: new Date(now).toISOString(),
        }),
      ],
      { stream: 'shipments', scope: 'observability', suppressed: false },
    );
    await waitFor('the webhook at the receiver', () => receiver.received('/hook').length === 1, 30_000);
    await seen(prometheus, 'fulfillment_webhook_change_to_delivery_seconds_count > 0');
    await seen(prometheus, 'fulfillment_analytics_refresh_age_seconds');
    await seen(prometheus, 'fulfillment_webhook_pending_deliveries');
    for (const expr of dashboardExprs) panelResults.set(expr, await prometheus.query(asGrafanaSends(expr)));
  } finally {
    await receiver.close();
    await prometheus.close();
  }
}

/** Waits until Prometheus answers `expr` with at least one series. */
function seen(prometheus: PrometheusServer, expr: string): Promise<void> {
  return waitFor(
    `Prometheus to see ${expr}`,
    async () => (await prometheus.query(expr)).length > 0,
    60_000,
    250,
  );
}

beforeAll(async () => {
  t = await createTestDatabase();
  // One endpoint disabled as a 410 would leave it, one by an operator (`webhooks disable`).
  const gone = await t.pool.query<{ id: string }>(
    `INSERT INTO sync.webhook_endpoints (url, secret, enabled, disabled_reason, disabled_by)
     VALUES ('https://example.com/gone', 'whsec_dGVzdA==', false, 'HTTP 410', 'failure') RETURNING id`,
  );
  const paused = await t.pool.query<{ id: string }>(
    `INSERT INTO sync.webhook_endpoints (url, secret, enabled, disabled_reason, disabled_by)
     VALUES ('https://example.com/paused', 'whsec_dGVzdA==', false, 'by hand', 'operator') RETURNING id`,
  );
  endpointIds = { gone: String(gone.rows[0]!.id), paused: String(paused.rows[0]!.id) };
  const child = spawnSourceCli(['worker'], {
    env: {
      ...process.env,
      DATABASE_URL: t.url,
      REDIS_URL: inject('redisUrl'),
      FULFILLMENT_QUEUE_PREFIX: prefix,
      HTTP_PORT: '0',
      // The webhook of this test goes to a receiver on 127.0.0.1.
      WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  child.stdout?.on('data', (chunk) => lines.push(...linesOf(String(chunk))));
  child.stderr?.on('data', (chunk) => lines.push(...linesOf(String(chunk))));
  try {
    // Sandbox mode: the worker syncs the in-process simulator at once; wait for real work to be counted.
    // The streams run once at registration, so a sync can finish before the HTTP port is logged.
    await waitFor(
      'a finished sync and the worker started',
      () => lines.some((l) => l.includes('"durationMs"')) && lines.some((l) => l.includes('worker started')),
      90_000,
    );
    const started = JSON.parse(lines.find((l) => l.includes('worker started'))!) as { httpPort: number };
    exposition = await (await fetch(`http://127.0.0.1:${started.httpPort}/metrics`)).text();
    await evaluatePanels(t, started.httpPort);
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}, 240_000);
afterAll(async () => {
  const redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: 1 });
  await cleanupRedisPrefix(redis, prefix);
  redis.disconnect();
  await t?.close();
});

describe('deploy/: dashboard and alert rules', () => {
  it('finds metric names in PromQL (what the checks below rely on)', () => {
    expect(
      metricNamesIn(
        'histogram_quantile(0.95, sum by (le, op) (rate(a_bucket{x="y z"}[$__rate_interval]))) > on (s) group_left () 3 * max by (s) (b)',
      ).sort(),
    ).toEqual(['a_bucket', 'b']);
  });

  it('query only metrics the running worker exports', () => {
    const families = exportedFamilies(exposition);
    expect(families.size).toBeGreaterThan(5);
    expect(variableQueries.length).toBeGreaterThanOrEqual(3);
    for (const expr of [...dashboardExprs, ...variableQueries, ...alertRules.map((r) => r.expr)]) {
      for (const name of metricNamesIn(expr)) {
        // `up` is the one series Prometheus adds itself for every scrape target.
        if (name === 'up') continue;
        expect(isExported(name, families), `${name} in: ${expr}`).toBe(true);
      }
    }
  });

  it('every panel query, evaluated by Prometheus scraping a worker that synced and delivered, returns series', ({
    skip,
  }) => {
    if (prometheusSkipped) skip(PROMETHEUS_MISSING);
    expect(panelResults.size).toBe(new Set(dashboardExprs).size);
    const empty = [...panelResults]
      .filter(([expr, series]) => series.length === 0 && !FAILURE_ONLY_PANELS.some((m) => expr.includes(m)))
      .map(([expr]) => expr);
    expect(empty, `panels without series:\n${empty.join('\n')}`).toEqual([]);
  });

  it('the freshness panels show values: the delivery timed from its change, data age beside its target', ({
    skip,
  }) => {
    if (prometheusSkipped) skip(PROMETHEUS_MISSING);
    const resultOf = (fragment: string) =>
      [...panelResults].filter(([expr]) => expr.includes(fragment)).flatMap(([, series]) => series);
    // The event changed 20 s before it was written: p95 from the change is at least that.
    const p95 = resultOf(
      'histogram_quantile(0.95, sum by (le, family) (rate(fulfillment_webhook_change_to_delivery',
    );
    const shipment = p95.find((s) => s.metric.family === 'shipment');
    expect(Number(shipment?.value)).toBeGreaterThanOrEqual(20);
    const ages = resultOf('max by (stream, scope) (fulfillment_stream_lag_seconds');
    expect(ages.some((s) => s.metric.stream === 'shipments' && Number(s.value) >= 0)).toBe(true);
    const targets = resultOf('3 * max by (stream) (fulfillment_stream_freshness_target_seconds');
    expect(targets.find((s) => s.metric.stream === 'shipments')?.value).toBe('180');
    // The enabled endpoint's backlog: its one delivery, pending or (once recorded) done.
    const backlog = resultOf('max by (endpoint) (fulfillment_webhook_pending_deliveries');
    expect(backlog.map((s) => s.metric.endpoint)).toEqual([deliveringEndpoint]);
    expect(['0', '1']).toContain(backlog[0]!.value);
  });

  it('the board shows runs and failures, lag, rows, rejected records, API calls and errors, latency, events, deliveries and queue depth', () => {
    const used = namesOf(dashboardExprs);
    for (const name of [
      'fulfillment_sync_runs_total',
      'fulfillment_stream_lag_seconds',
      'fulfillment_sync_rows_total',
      'fulfillment_api_calls_total',
      'fulfillment_api_errors_total',
      'fulfillment_upstream_latency_seconds_bucket',
      'fulfillment_events_total',
      'fulfillment_webhook_deliveries_total',
      'fulfillment_queue_depth',
    ]) {
      expect(used, name).toContain(name);
    }
    expect(dashboardExprs.some((e) => e.includes('outcome="rejected"'))).toBe(true);
    expect(dashboardExprs.some((e) => e.includes('outcome="failed"'))).toBe(true);
  });

  it('the board shows freshness and delivery: data age by target, latency from change and detection, backlogs, failing endpoints, analytics refresh age, run duration, prunes', () => {
    const used = namesOf(dashboardExprs);
    for (const name of [
      'fulfillment_stream_freshness_target_seconds',
      'fulfillment_webhook_change_to_delivery_seconds_bucket',
      'fulfillment_webhook_detection_to_delivery_seconds_bucket',
      'fulfillment_webhook_pending_deliveries',
      'fulfillment_webhook_oldest_pending_delivery_age_seconds',
      'fulfillment_events_undispatched',
      'fulfillment_events_oldest_undispatched_age_seconds',
      'fulfillment_webhook_endpoint_failing_seconds',
      'fulfillment_analytics_refresh_age_seconds',
      'fulfillment_analytics_refresh_interval_seconds',
      'fulfillment_sync_run_duration_seconds_bucket',
      'fulfillment_retention_prune_runs_total',
    ]) {
      expect(used, name).toContain(name);
    }
  });

  it('the board shows the process and runtime: memory, CPU, event-loop lag, GC, open handles', () => {
    const used = namesOf(dashboardExprs);
    for (const name of [
      'process_resident_memory_bytes',
      'nodejs_heap_size_used_bytes',
      'process_cpu_seconds_total',
      'nodejs_eventloop_lag_p99_seconds',
      'nodejs_gc_duration_seconds_sum',
      'process_open_fds',
    ]) {
      expect(used, name).toContain(name);
    }
  });

  it('the worker exports the default process and runtime metrics, fed with real values', () => {
    const value = (name: string) => Number(new RegExp(`^${name} ([\\d.e+-]+)$`, 'm').exec(exposition)?.[1]);
    expect(value('process_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
    expect(value('process_cpu_seconds_total')).toBeGreaterThan(0);
    expect(value('nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
    // The event-loop monitor has sampled: a lag of exactly 0 would mean it never ran.
    expect(value('nodejs_eventloop_lag_p99_seconds')).toBeGreaterThan(0);
    // A worker that synced has collected garbage at least once.
    expect(exposition).toMatch(/^nodejs_gc_duration_seconds_count\{kind="\w+"\} [1-9]\d*$/m);
  });
});

describe('deploy/: the dashboard imports into any Grafana', () => {
  it('declares its data source as an import input and hard-codes none', () => {
    expect(dashboard.__inputs).toEqual([
      expect.objectContaining({ name: 'DS_PROMETHEUS', type: 'datasource', pluginId: 'prometheus' }),
    ]);
    // Imported, the input picks the data source variable; every panel and query reads the variable.
    expect(variable('datasource')).toMatchObject({
      type: 'datasource',
      query: 'prometheus',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's placeholder syntax, not JavaScript's.
      current: { value: '${DS_PROMETHEUS}' },
    });
    const reads = [
      ...dashboard.panels
        .filter((p) => p.type !== 'row')
        .flatMap((p) => [p.datasource, ...(p.targets ?? []).map((t) => t.datasource)]),
      ...dashboard.templating.list.filter((v) => v.type === 'query').map((v) => v.datasource),
    ];
    expect(reads.length).toBeGreaterThan(20);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Grafana's placeholder syntax, not JavaScript's.
    for (const ds of reads) expect(ds).toEqual({ type: 'prometheus', uid: '${datasource}' });
    expect(dashboardText).not.toMatch(/"uid":\s*"prometheus"/);
  });

  it('has instance, stream and scope variables, and the panels filter by them', () => {
    for (const name of ['instance', 'stream', 'scope']) {
      expect(variable(name), name).toMatchObject({ type: 'query', multi: true, includeAll: true });
    }
    // Every query is narrowed to the chosen instances; stream and scope wherever the metric has them.
    for (const expr of dashboardExprs) expect(expr, expr).toContain('instance=~"$instance"');
    const byStream = dashboardExprs.filter((e) =>
      /fulfillment_(sync_runs|sync_rows|stream_lag|sync_vanish|sync_run_api)/.test(e),
    );
    expect(byStream.length).toBeGreaterThan(5);
    for (const expr of byStream) expect(expr, expr).toContain('stream=~"$stream"');
    const byScope = dashboardExprs.filter((e) => /fulfillment_(stream_lag|sync_vanish|sync_run_api)/.test(e));
    expect(byScope.length).toBeGreaterThanOrEqual(3);
    for (const expr of byScope) expect(expr, expr).toContain('scope=~"$scope"');
    // The series the variables list by exist with those labels in a running worker's /metrics.
    expect(exposition).toMatch(/^fulfillment_sync_runs_total\{stream="\w+",/m);
    expect(exposition).toMatch(/^fulfillment_stream_lag_seconds\{stream="\w+",scope="\w+"\}/m);
  });

  it('is provisioned as docker compose mounts it, reading the provisioned Prometheus', () => {
    const compose = parse(readFileSync(path.join(REPO_ROOT, 'docker-compose.yml'), 'utf8')) as {
      services: { grafana: { volumes: string[] } };
    };
    const mounts = new Map(
      compose.services.grafana.volumes.map((v) => v.split(':').slice(0, 2) as [string, string]),
    );
    const providers = parse(
      readFileSync(deploy('grafana/provisioning/dashboards/fulfillment-sync.yml'), 'utf8'),
    ) as {
      providers: { options: { path: string } }[];
    };
    expect(mounts.get('./deploy/grafana/dashboards')).toBe(providers.providers[0]!.options.path);
    expect(mounts.get('./deploy/grafana/provisioning')).toBe('/etc/grafana/provisioning');
    // The data source variable lists Prometheus data sources; compose provisions one as the default.
    const datasources = parse(
      readFileSync(deploy('grafana/provisioning/datasources/prometheus.yml'), 'utf8'),
    ) as { datasources: { type: string; isDefault: boolean }[] };
    expect(datasources.datasources).toContainEqual(
      expect.objectContaining({ type: 'prometheus', isDefault: true }),
    );
  });

  it('alerts on lag over three cadences, failing runs, rising rejects, a disabled endpoint and Redis not ready', () => {
    const exprOf = (name: string) => alertRules.find((r) => r.alert === name)?.expr ?? '';
    expect(metricNamesIn(exprOf('FulfillmentStreamLagging')).sort()).toEqual([
      'fulfillment_stream_cadence_seconds',
      'fulfillment_stream_lag_seconds',
    ]);
    expect(exprOf('FulfillmentStreamLagging')).toMatch(
      /3 \* max by \(stream\) \(fulfillment_stream_cadence_seconds\)/,
    );
    expect(exprOf('FulfillmentSyncRunsFailing')).toContain('fulfillment_sync_runs_total{outcome="failed"}');
    expect(exprOf('FulfillmentRejectedRecordsRising')).toContain(
      'fulfillment_sync_rows_total{outcome="rejected"}',
    );
    // Only endpoints disabled by failure: an operator's `webhooks disable` is no incident.
    expect(exprOf('FulfillmentWebhookEndpointDisabled')).toContain(
      'fulfillment_webhook_endpoint_disabled{reason="failure"}',
    );
    expect(exprOf('FulfillmentRedisNotReady')).toContain('fulfillment_ready{check="redis"}');
  });

  it('the gauges those alerts read are fed: target or cadence, poll interval, endpoints by state, readiness', () => {
    // A stream's polling is set by its freshness target unless a cadence governs it (no target, or
    // one set explicitly): one of the two series per stream, so one lag alert compares with it.
    expect(exposition).toMatch(/^fulfillment_stream_freshness_target_seconds\{stream="shipments"\} 60$/m);
    expect(exposition).not.toMatch(/^fulfillment_stream_cadence_seconds\{stream="shipments"\}/m);
    expect(exposition).toMatch(/^fulfillment_stream_cadence_seconds\{stream="inventory_activity"\} 3600$/m);
    expect(exposition).not.toMatch(
      /^fulfillment_stream_freshness_target_seconds\{stream="inventory_activity"\}/m,
    );
    // And the interval the scheduler really polls at (the stale alert's other bound); none for orders.
    expect(exposition).toMatch(/^fulfillment_stream_poll_interval_seconds\{stream="shipments"\} \d+$/m);
    expect(exposition).toMatch(
      /^fulfillment_stream_poll_interval_seconds\{stream="inventory_activity"\} 3600$/m,
    );
    expect(exposition).not.toMatch(/^fulfillment_stream_poll_interval_seconds\{stream="orders"\}/m);
    expect(exposition).toMatch(/^fulfillment_webhook_endpoints\{state="disabled"\} 2$/m);
    // Per endpoint, with why: the alert reads reason="failure" only.
    expect(exposition).toContain(
      `fulfillment_webhook_endpoint_disabled{endpoint="${endpointIds.gone}",reason="failure"} 1`,
    );
    expect(exposition).toContain(
      `fulfillment_webhook_endpoint_disabled{endpoint="${endpointIds.paused}",reason="operator"} 1`,
    );
    expect(exposition).toMatch(/^fulfillment_webhook_endpoints\{state="enabled"\} 0$/m);
    expect(exposition).toMatch(/^fulfillment_ready\{check="redis"\} 1$/m);
    expect(exposition).toMatch(/^fulfillment_ready\{check="postgres"\} 1$/m);
    expect(exposition).toMatch(/^fulfillment_stream_lag_seconds\{stream="\w+",scope="\w+"\} [\d.e+-]+$/m);
  });

  it('readiness reads 0 when a check fails or hangs', async () => {
    wireServiceMetricSources({
      config: { streams: {} as never },
      pool: t.pool,
      readiness: {
        redis: () => {
          throw new Error('Redis connection is reconnecting');
        },
        postgres: () => new Promise<boolean>(() => {}),
        schedules: () => true,
      },
      checkTimeoutMs: 100,
    });
    const text = await metricsRegistry.metrics();
    expect(text).toMatch(/^fulfillment_ready\{check="redis"\} 0$/m);
    expect(text).toMatch(/^fulfillment_ready\{check="postgres"\} 0$/m);
    expect(text).toMatch(/^fulfillment_ready\{check="schedules"\} 1$/m);
  });
});
