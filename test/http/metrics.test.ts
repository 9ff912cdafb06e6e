import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { writeEvents } from '../../src/events/outbox.ts';
import { metricsRegistry } from '../../src/http/metrics.ts';
import { recordWebhookOutcome } from '../../src/http/metricsHooks.ts';
import { openUpstream, type Upstream } from '../../src/runtime/upstream.ts';
import { startWebhookDelivery } from '../../src/webhooks/delivery/runtime.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { listAttempts } from '../../src/webhooks/views/deliveries.ts';
import { createEngineRunner } from '../../src/worker/engineRunner.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { LOCAL_RECEIVERS, startReceiver, testEvent } from '../webhooks/harness.ts';

/**
 * The metrics the service promises move when real work happens: a sandbox sync (timed) and a webhook
 * (counted, and timed from the change to the receiver's 2xx).
 */

const logger = pino({ level: 'silent' });
let t: TestDatabase;
let upstream: Upstream;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let webhooks: Awaited<ReturnType<typeof startWebhookDelivery>> | undefined;

beforeAll(async () => {
  t = await createTestDatabase();
  receiver = await startReceiver();
});
afterAll(async () => {
  await webhooks?.close();
  await upstream?.close();
  await receiver?.close();
  await t?.close();
});

/** Sum of a family's samples in the exposition text (label sets filtered by `labels`). */
function total(text: string, name: string, labels = ''): number {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`) || line.startsWith(`${name} `))
    .filter((line) => line.includes(labels))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
}

describe('metrics', () => {
  it('a sandbox sync counts API calls, latency, errors and events; a delivered webhook counts as delivered', async () => {
    // No FULFILLMENT_API_URL: sandbox mode, the simulator in-process behind the real client.
    const config = loadConfig({ DATABASE_URL: t.url });
    upstream = await openUpstream(config, logger);
    const engine = createEngineRunner({ pool: t.pool, client: upstream.client, config, logger });
    const account = upstream.accountNumbers[0] as string;
    await engine({ stream: 'shipments', scope: account, mode: 'incremental' });
    // An order the simulator does not know: a failed call.
    await upstream.client.getOrderDetail(account, 'NO-SUCH-ORDER').catch(() => undefined);

    webhooks = await startWebhookDelivery({
      ...LOCAL_RECEIVERS,
      pool: t.pool,
      databaseUrl: t.url,
      schedule: [0, 50],
      relayIntervalMs: 100,
      onOutcome: recordWebhookOutcome,
    });
    const endpoint = await addEndpoint(t.pool, { url: receiver.url('/hook') }, LOCAL_RECEIVERS);
    receiver.on('/hook', endpoint.secret, () => ({ status: 200 }));
    // Changed upstream 30 s ago, detected 5 s ago: how long it took to reach the subscriber is timed.
    const written = Date.now();
    const event = testEvent({
      occurredAt: new Date(written - 30_000).toISOString(),
      detectedAt: new Date(written - 5_000).toISOString(),
    });
    const tx = await t.pool.connect();
    try {
      await tx.query('BEGIN');
      await writeEvents(tx, [event], { stream: 'shipments', scope: account, suppressed: false });
      await tx.query('COMMIT');
    } finally {
      tx.release();
    }
    await waitFor('a succeeded delivery', async () =>
      (await listAttempts(t.pool, event.id)).some((a) => a.status === 'succeeded'),
    );

    const text = await metricsRegistry.metrics();
    expect(total(text, 'fulfillment_api_calls_total', 'status="200"')).toBeGreaterThan(0);
    expect(total(text, 'fulfillment_api_calls_total', 'operation="GET Shipments/Updates"')).toBeGreaterThan(
      0,
    );
    expect(total(text, 'fulfillment_api_errors_total')).toBeGreaterThan(0);
    // What one cycle of the shipments stream cost, per scope.
    expect(total(text, 'fulfillment_sync_run_api_calls', 'stream="shipments"')).toBeGreaterThan(0);
    expect(total(text, 'fulfillment_upstream_latency_seconds_count')).toBe(
      total(text, 'fulfillment_api_calls_total'),
    );
    const stored = await t.pool.query(
      `SELECT count(*)::int AS n FROM sync.events WHERE stream = 'shipments' AND type LIKE 'shipment.%' AND id <> $1`,
      [event.id],
    );
    expect(stored.rows[0].n).toBeGreaterThan(0);
    // Events counted by type, exactly those the sync inserted (the test event was written directly).
    expect(total(text, 'fulfillment_events_total', 'type="shipment.')).toBe(stored.rows[0].n);
    expect(total(text, 'fulfillment_webhook_deliveries_total', 'outcome="delivered"')).toBe(1);
    // The delivered event, timed from its change and from its detection to the receiver's 2xx.
    const delivered = (Date.now() - written) / 1000;
    const change = 'fulfillment_webhook_change_to_delivery_seconds';
    const detection = 'fulfillment_webhook_detection_to_delivery_seconds';
    expect(total(text, `${change}_count`, 'family="shipment"')).toBe(1);
    expect(total(text, `${change}_sum`, 'family="shipment"')).toBeGreaterThanOrEqual(30);
    expect(total(text, `${change}_sum`, 'family="shipment"')).toBeLessThanOrEqual(30 + delivered);
    expect(total(text, `${detection}_count`, 'family="shipment"')).toBe(1);
    expect(total(text, `${detection}_sum`, 'family="shipment"')).toBeGreaterThanOrEqual(5);
    expect(total(text, `${detection}_sum`, 'family="shipment"')).toBeLessThanOrEqual(5 + delivered);
    // The engine's run, timed.
    expect(
      total(text, 'fulfillment_sync_run_duration_seconds_count', 'stream="shipments",mode="incremental"'),
    ).toBe(1);
  });
});
