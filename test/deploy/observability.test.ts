import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { metricsRegistry } from '../../src/http/metrics.ts';
import { wireServiceMetricSources } from '../../src/worker/serviceMetricSources.ts';
import { linesOf, REPO_ROOT, spawnSourceCli } from '../helpers/cli.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { cleanupRedisPrefix, testRedisPrefix } from '../helpers/redis.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { exportedFamilies, isExported, metricNamesIn } from './promql.ts';

/**
 * The Grafana board and the Prometheus alert rules under deploy/ query only metrics a running worker
 * really exports, read from its live /metrics.
 */

const deploy = (...parts: string[]) => path.join(REPO_ROOT, 'deploy', ...parts);
const dashboard = JSON.parse(readFileSync(deploy('grafana/dashboards/fulfillment-sync.json'), 'utf8')) as {
  uid: string;
  panels: { type: string; title: string; datasource?: { uid: string }; targets?: { expr: string }[] }[];
};
const alerts = parse(readFileSync(deploy('prometheus/alerts.yml'), 'utf8')) as {
  groups: { rules: { alert: string; expr: string }[] }[];
};
const dashboardExprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
const alertRules = alerts.groups.flatMap((g) => g.rules);
const namesOf = (exprs: string[]) => new Set(exprs.flatMap(metricNamesIn));

let t: TestDatabase;
const prefix = testRedisPrefix('observability');
let exposition = '';

beforeAll(async () => {
  t = await createTestDatabase();
  // One endpoint disabled, as a 410 would leave it.
  await t.pool.query(
    `INSERT INTO sync.webhook_endpoints (url, secret, enabled, disabled_reason)
     VALUES ('https://example.com/gone', 'whsec_dGVzdA==', false, 'HTTP 410')`,
  );
  const child = spawnSourceCli(['worker'], {
    env: {
      ...process.env,
      DATABASE_URL: t.url,
      REDIS_URL: inject('redisUrl'),
      FULFILLMENT_QUEUE_PREFIX: prefix,
      HTTP_PORT: '0',
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
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
  }
}, 150_000);
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
    for (const expr of [...dashboardExprs, ...alertRules.map((r) => r.expr)]) {
      for (const name of metricNamesIn(expr)) {
        // `up` is the one series Prometheus adds itself for every scrape target.
        if (name === 'up') continue;
        expect(isExported(name, families), `${name} in: ${expr}`).toBe(true);
      }
    }
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
    // Every panel reads the provisioned data source.
    const datasources = parse(
      readFileSync(deploy('grafana/provisioning/datasources/prometheus.yml'), 'utf8'),
    ) as { datasources: { uid: string }[] };
    const uid = datasources.datasources[0]!.uid;
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
      expect(panel.datasource?.uid, panel.title).toBe(uid);
    }
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
    expect(exprOf('FulfillmentWebhookEndpointDisabled')).toContain(
      'fulfillment_webhook_endpoints{state="disabled"}',
    );
    expect(exprOf('FulfillmentRedisNotReady')).toContain('fulfillment_ready{check="redis"}');
  });

  it('the gauges those alerts read are fed: cadence, endpoints by state, readiness', () => {
    expect(exposition).toMatch(/^fulfillment_stream_cadence_seconds\{stream="shipments"\} 300$/m);
    expect(exposition).toMatch(/^fulfillment_webhook_endpoints\{state="disabled"\} 1$/m);
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
