import { spawn } from 'node:child_process';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createHttpApp } from '../../src/http/app.ts';
import { metrics, metricsRegistry, setQueueDepthSource } from '../../src/http/metrics.ts';
import { postgresReady, redisReady } from '../../src/http/readiness.ts';
import { freePort } from '../helpers/freePort.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { deletePrefix, uniquePrefix } from '../worker/fixtures.ts';

const redisUrl = inject('redisUrl');
const databaseUrl = inject('databaseUrl');
const prefix = uniquePrefix('http');
const cleanups: Array<() => unknown> = [];

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  setQueueDepthSource(undefined);
  await deletePrefix(redisUrl, prefix);
});

// One sample line of the Prometheus text format: name{labels} value.
const SAMPLE =
  /^[a-zA-Z_:][a-zA-Z0-9_:]*(\{([a-zA-Z_][a-zA-Z0-9_]*="(\\.|[^"\\])*",?)*\})? -?(\d+(\.\d+)?(e[+-]?\d+)?|NaN|\+Inf|-Inf)$/;

describe('http app', () => {
  it('/healthz answers while the process is alive', async () => {
    const res = await createHttpApp({ readiness: {} }).request('/healthz');
    expect(res.status).toBe(200);
  });

  it('/metrics parses as Prometheus text and carries every metric family', async () => {
    metrics.syncRuns.inc({ stream: 'shipments', outcome: 'succeeded' });
    metrics.rows.inc({ stream: 'shipments', outcome: 'inserted' }, 3);
    metrics.upstreamLatency.observe({ operation: 'Shipments/Updates' }, 0.2);
    setQueueDepthSource(async () => [{ queue: 'sync', state: 'waiting', count: 4 }]);
    const res = await createHttpApp({ readiness: {} }).request('/metrics');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    const lines = text.split('\n').filter((l) => l !== '');
    for (const line of lines) {
      if (line.startsWith('# HELP ') || line.startsWith('# TYPE ')) continue;
      expect(line).toMatch(SAMPLE);
    }
    for (const name of [
      'fulfillment_sync_runs_total',
      'fulfillment_sync_rows_total',
      'fulfillment_api_calls_total',
      'fulfillment_api_errors_total',
      'fulfillment_upstream_latency_seconds',
      'fulfillment_stream_lag_seconds',
      'fulfillment_events_total',
      'fulfillment_webhook_deliveries_total',
      'fulfillment_queue_depth',
    ]) {
      expect(text).toContain(`# TYPE ${name} `);
    }
    expect(text).toContain('fulfillment_queue_depth{queue="sync",state="waiting"} 4');
    expect(text).toContain('fulfillment_sync_rows_total{stream="shipments",outcome="inserted"} 3');
    expect(metricsRegistry.contentType).toContain('text/plain');
  });

  it('/readyz is ready with Postgres and Redis up and goes not-ready when Redis stops', async () => {
    const port = await freePort();
    const server = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    cleanups.push(() => void server.kill('SIGKILL'));
    const redis = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: null, lazyConnect: false });
    redis.on('error', () => {}); // reconnect noise once the server is gone is expected here
    cleanups.push(() => redis.disconnect());
    const pool = new pg.Pool({ connectionString: databaseUrl });
    cleanups.push(() => pool.end());
    let schedulesRegistered = true;
    const app = createHttpApp({
      readiness: {
        postgres: () => postgresReady(pool),
        redis: () => redisReady(redis),
        schedules: () => schedulesRegistered,
      },
      checkTimeoutMs: 500,
    });
    await waitFor('redis up', async () => (await app.request('/readyz')).status === 200);

    schedulesRegistered = false;
    expect((await app.request('/readyz')).status).toBe(503);
    schedulesRegistered = true;

    server.kill('SIGTERM');
    await waitFor('not ready', async () => (await app.request('/readyz')).status === 503);
    const body = (await (await app.request('/readyz')).json()) as { checks: Record<string, string> };
    expect(body.checks.postgres).toBe('ok');
    expect(body.checks.redis).not.toBe('ok');
  });

  it('the dashboard is off (404) without credentials', async () => {
    const res = await createHttpApp({ readiness: {} }).request('/admin/queues');
    expect(res.status).toBe(404);
  });

  it('the dashboard answers 401 without credentials and 200 with them', async () => {
    const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
    const queue = new Queue('sync', { connection, prefix });
    cleanups.push(() => connection.disconnect());
    cleanups.push(() => queue.close());
    await queue.add('syncStream', { stream: 'products', scope: 'S1' });
    const app = createHttpApp({
      readiness: {},
      queues: [queue],
      dashboard: { user: 'ops', password: 's3cret' },
    });
    expect((await app.request('/admin/queues')).status).toBe(401);
    const wrong = { Authorization: `Basic ${Buffer.from('ops:nope').toString('base64')}` };
    expect((await app.request('/admin/queues', { headers: wrong })).status).toBe(401);
    const auth = { Authorization: `Basic ${Buffer.from('ops:s3cret').toString('base64')}` };
    const page = await app.request('/admin/queues', { headers: auth });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<html');
    const api = await app.request('/admin/queues/api/queues', { headers: auth });
    expect(api.status).toBe(200);
    expect(JSON.stringify(await api.json())).toContain('"sync"');
    expect((await app.request('/admin/queues/api/queues')).status).toBe(401);
  });
});
