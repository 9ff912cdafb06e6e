import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { writeEvents } from '../../src/events/outbox.ts';
import { recordDeliveredLatency } from '../../src/http/deliveryMetrics.ts';
import { metricsRegistry } from '../../src/http/metrics.ts';
import { createDeliveries } from '../../src/webhooks/delivery/deliveryStates.ts';
import { wireMetricSources } from '../../src/worker/metricsSources.ts';
import { wireServiceMetricSources } from '../../src/worker/serviceMetricSources.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { testEvent } from '../webhooks/harness.ts';

/**
 * The gauges operators alert on, read from a database in a known state: each endpoint's backlog and
 * failure run, the relay's backlog, the analytics views' refresh state, each stream's target, and
 * the counters that must start at 0. One scrape costs one query per group.
 */

let t: TestDatabase;
/** The scrape's clock: every age below is exact against it. */
const NOW = new Date('2026-11-20T12:00:00.000Z');
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);
let queries: string[] = [];
const ids = { failing: '', healthy: '', disabled: '' };

async function endpoint(enabled: boolean, failingSince: Date | null): Promise<string> {
  const { rows } = await t.pool.query<{ id: string }>(
    `INSERT INTO sync.webhook_endpoints (url, secret, enabled, disabled_by, failing_since)
     VALUES ('https://example.com/hook', 'whsec_dGVzdA==', $1, $2, $3) RETURNING id`,
    [enabled, enabled ? null : 'operator', failingSince],
  );
  return rows[0]!.id;
}

beforeAll(async () => {
  t = await createTestDatabase();
  ids.failing = await endpoint(true, ago(1200));
  ids.healthy = await endpoint(true, null);
  ids.disabled = await endpoint(false, null);
  const handed = testEvent();
  const waiting = testEvent({ detectedAt: ago(420).toISOString() });
  const history = testEvent({ detectedAt: ago(9000).toISOString() });
  await writeEvents(t.pool, [handed, waiting], { stream: 'shipments', scope: '1001', suppressed: false });
  await writeEvents(t.pool, [history], { stream: 'shipments', scope: '1001', suppressed: true });
  await t.pool.query('UPDATE sync.events SET dispatched_at = $2 WHERE id = $1', [handed.id, ago(600)]);
  // Handed to the failing endpoint ten minutes ago; a disabled endpoint's pending rows are no backlog.
  await createDeliveries(t.pool, [{ endpointId: ids.failing, eventId: handed.id }], { now: ago(600) });
  await createDeliveries(t.pool, [{ endpointId: ids.disabled, eventId: handed.id }], { now: ago(7200) });
  // Kept tables: shipment_facts with a change queued since, order_lifecycle caught up, daily_inventory
  // never refreshed (the install's rebuild requests are taken away first).
  await t.pool.query('DELETE FROM sync.analytics_changes');
  await t.pool.query(
    `INSERT INTO sync.analytics_refreshes (relation, changed_at, refreshed_as_of) VALUES
       ('analytics.shipment_facts', $1, $2), ('analytics.order_lifecycle', $2, $3)`,
    [ago(1900), ago(1800), ago(1700)],
  );
  await t.pool.query(
    `INSERT INTO sync.analytics_changes (relation, key) VALUES ('analytics.shipment_facts', ARRAY['C1'])`,
  );
  const counting = {
    query: (text: string, values?: unknown[]) => {
      queries.push(text);
      return t.pool.query(text, values);
    },
  } as unknown as typeof t.pool;
  wireMetricSources([] as Queue[], counting, () => NOW);
  wireServiceMetricSources({
    config: loadConfig({ DATABASE_URL: t.url }),
    pool: t.pool,
    readiness: {},
  });
});
afterAll(async () => {
  await t?.close();
});

/** The value of one sample line `name{labels} value`, or undefined when the series is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('scraped freshness and backlog gauges', () => {
  let text = '';
  beforeAll(async () => {
    queries = [];
    text = await metricsRegistry.metrics();
  });

  it('per enabled endpoint: pending deliveries, the oldest one’s age, and how long it has been failing', () => {
    const e = (id: string) => `{endpoint="${id}"}`;
    expect(sample(text, `fulfillment_webhook_pending_deliveries${e(ids.failing)}`)).toBe(1);
    expect(sample(text, `fulfillment_webhook_oldest_pending_delivery_age_seconds${e(ids.failing)}`)).toBe(
      600,
    );
    expect(sample(text, `fulfillment_webhook_endpoint_failing_seconds${e(ids.failing)}`)).toBe(1200);
    expect(sample(text, `fulfillment_webhook_pending_deliveries${e(ids.healthy)}`)).toBe(0);
    expect(sample(text, `fulfillment_webhook_oldest_pending_delivery_age_seconds${e(ids.healthy)}`)).toBe(0);
    expect(sample(text, `fulfillment_webhook_endpoint_failing_seconds${e(ids.healthy)}`)).toBe(0);
    // Disabled: sent nothing, so no backlog series (its own alert says it is disabled).
    for (const name of [
      'fulfillment_webhook_pending_deliveries',
      'fulfillment_webhook_oldest_pending_delivery_age_seconds',
      'fulfillment_webhook_endpoint_failing_seconds',
    ]) {
      expect(sample(text, `${name}${e(ids.disabled)}`), name).toBeUndefined();
    }
  });

  it('the relay backlog: deliverable events not fanned out, and since when (history is never delivered)', () => {
    expect(sample(text, 'fulfillment_events_undispatched')).toBe(1);
    expect(sample(text, 'fulfillment_events_oldest_undispatched_age_seconds')).toBe(420);
  });

  it('per kept analytics table: the age of what it shows, whether a refresh is owed, and its interval', () => {
    const v = (view: string) => `{view="analytics.${view}"}`;
    expect(sample(text, `fulfillment_analytics_refresh_age_seconds${v('shipment_facts')}`)).toBe(1800);
    expect(sample(text, `fulfillment_analytics_refresh_pending${v('shipment_facts')}`)).toBe(1);
    expect(sample(text, `fulfillment_analytics_refresh_age_seconds${v('order_lifecycle')}`)).toBe(1700);
    expect(sample(text, `fulfillment_analytics_refresh_pending${v('order_lifecycle')}`)).toBe(0);
    expect(sample(text, `fulfillment_analytics_refresh_interval_seconds${v('shipment_facts')}`)).toBe(60);
    expect(sample(text, `fulfillment_analytics_refresh_interval_seconds${v('daily_inventory')}`)).toBe(60);
    // A plain view follows the tables it reads: no refresh of its own to watch.
    expect(
      sample(text, `fulfillment_analytics_refresh_interval_seconds${v('return_rate_by_sku')}`),
    ).toBeUndefined();
    // Never refreshed: no age to show.
    expect(sample(text, `fulfillment_analytics_refresh_age_seconds${v('daily_inventory')}`)).toBeUndefined();
  });

  it('each stream’s freshness target, and the counters alerts take increase() of at 0', () => {
    expect(sample(text, 'fulfillment_stream_freshness_target_seconds{stream="invoices"}')).toBe(60);
    expect(sample(text, 'fulfillment_stream_freshness_target_seconds{stream="products"}')).toBe(86_400);
    expect(sample(text, 'fulfillment_retention_prune_runs_total{outcome="failed"}')).toBe(0);
    expect(sample(text, 'fulfillment_webhook_deliveries_total{outcome="failed"}')).toBe(0);
  });

  it('one scrape reads each group with one query, however many gauges it feeds', () => {
    // Data age, endpoint backlog, relay backlog, analytics refreshes.
    expect(queries).toHaveLength(4);
  });
});

describe('delivery latency', () => {
  it('times a delivered event from its change and from its detection, by family; a replay is not timed', async () => {
    const answeredAt = new Date('2026-11-20T12:01:00.000Z');
    const facts = {
      eventType: 'invoice.paid',
      occurredAt: new Date('2026-11-20T12:00:00.000Z'),
      detectedAt: new Date('2026-11-20T12:00:45.000Z'),
      answeredAt,
    };
    recordDeliveredLatency({ ...facts, series: '' });
    recordDeliveredLatency({ ...facts, series: 'rp_1' });
    const text = await metricsRegistry.metrics();
    const change = 'fulfillment_webhook_change_to_delivery_seconds';
    const detection = 'fulfillment_webhook_detection_to_delivery_seconds';
    expect(sample(text, `${change}_count{family="invoice"}`)).toBe(1);
    expect(sample(text, `${change}_sum{family="invoice"}`)).toBe(60);
    expect(sample(text, `${detection}_sum{family="invoice"}`)).toBe(15);
    // Within the one-minute target: in the 60 s bucket, not the 45 s one.
    expect(sample(text, `${change}_bucket{le="45",family="invoice"}`)).toBe(0);
    expect(sample(text, `${change}_bucket{le="60",family="invoice"}`)).toBe(1);
  });
});
