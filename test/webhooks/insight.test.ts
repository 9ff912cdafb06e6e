import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhooksAttempts, webhooksStats } from '../../src/cli/actions/webhookEndpointCommands.ts';
import { webhooksDisable } from '../../src/cli/actions/webhooks.ts';
import { writeEvents } from '../../src/events/outbox.ts';
import { metricsRegistry, setEndpointFiguresSource } from '../../src/http/metrics.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { endpointFiguresOnce } from '../../src/worker/serviceMetricSources.ts';
import {
  QUICK_RETRIES,
  startDeliveryEngine,
  stopDeliveryEngines,
  waitSettled,
} from '../helpers/deliveryEngine.ts';
import { createTestDatabase, LOCAL_RECEIVERS, startReceiver, testEvent } from './harness.ts';

/**
 * `webhooks attempts`, `webhooks stats` and the per-endpoint figures in /metrics, from deliveries
 * to a real receiver: one endpoint that fails twice then succeeds, one that answers 410 (disabled by
 * failure), one an operator disabled.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
});
afterAll(async () => {
  await stopDeliveryEngines();
  setEndpointFiguresSource(undefined);
  await receiver?.close();
  await database?.drop();
});

function printer() {
  const lines: string[] = [];
  return { lines, print: (line: string) => void lines.push(line) };
}

/** The samples of one metric family in the exposition text, as label text -> value. */
function samples(text: string, name: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`)) continue;
    const labels = line.slice(name.length, line.lastIndexOf('}') + 1);
    found.set(labels, Number(line.slice(line.lastIndexOf(' ') + 1)));
  }
  return found;
}

describe('webhooks attempts and stats', () => {
  it('list attempts by endpoint, event, status and time, and give per endpoint figures, also in /metrics', async () => {
    const flaky = await addEndpoint(database.pool, { url: receiver.url('/flaky') }, LOCAL_RECEIVERS);
    const gone = await addEndpoint(database.pool, { url: receiver.url('/gone') }, LOCAL_RECEIVERS);
    const paused = await addEndpoint(database.pool, { url: receiver.url('/paused') }, LOCAL_RECEIVERS);
    receiver.on('/flaky', flaky.secret, (_r, count) => ({ status: count <= 2 ? 500 : 200 }));
    receiver.on('/gone', gone.secret, () => ({ status: 410 }));
    await webhooksDisable(database.pool, paused.id, () => {});

    await startDeliveryEngine(database.url, { env: QUICK_RETRIES });
    const start = new Date();
    const event = testEvent();
    await writeEvents(database.pool, [event], { stream: null, scope: null, suppressed: false });
    await waitSettled(database.pool, [event.id]);
    // When the flaky endpoint's attempts were made, as stored.
    const { rows: times } = await database.pool.query(
      'SELECT attempted_at FROM sync.webhook_deliveries WHERE endpoint_id = $1 ORDER BY attempt',
      [flaky.id],
    );
    const attemptedAt = times.map((row) => new Date(row.attempted_at));
    const [, lastFailure, success] = attemptedAt as [Date, Date, Date];

    const all = printer();
    await webhooksAttempts(database.pool, { endpointId: flaky.id, limit: 100 }, all.print);
    // A header, then newest first: the success, then the two failures (empty bodies: no body lines).
    expect(all.lines).toHaveLength(4);
    expect(all.lines[0]).toMatch(/^id +attempted +endpoint +event +# +status +http +ms +detail$/);
    expect(all.lines[1]).toMatch(
      new RegExp(`^\\d+ +\\S+Z +${flaky.id} +${event.id} +3 +succeeded +200 +\\d+$`),
    );
    expect(all.lines[3]).toMatch(/ 1 +failed +500 +\d+ +receiver answered HTTP 500 {2}next \d{4}-/);

    const failed = printer();
    await webhooksAttempts(database.pool, { eventId: event.id, status: 'failed', limit: 100 }, failed.print, {
      json: true,
    });
    const failures = JSON.parse(failed.lines[0] ?? '[]') as Array<Record<string, unknown>>;
    expect(failures.map((a) => [a.endpointId, a.attempt, a.status, a.responseCode])).toEqual([
      [flaky.id, 2, 'failed', 500],
      [flaky.id, 1, 'failed', 500],
    ]);
    const gaveUp = printer();
    await webhooksAttempts(database.pool, { status: 'gave_up', limit: 100 }, gaveUp.print, { json: true });
    expect(JSON.parse(gaveUp.lines[0] ?? '[]')).toMatchObject([
      { endpointId: gone.id, eventId: event.id, status: 'gave_up', responseCode: 410 },
    ]);
    const late = printer();
    await webhooksAttempts(database.pool, { since: success, limit: 100 }, late.print);
    expect(late.lines).toHaveLength(2);
    expect(late.lines[1]).toMatch(/ 3 +succeeded +200 /);
    await expect(
      webhooksAttempts(database.pool, { endpointId: 'ep_nope', limit: 5 }, late.print),
    ).rejects.toThrow('No endpoint ep_nope: see `webhooks list`.');
    await expect(
      webhooksAttempts(database.pool, { eventId: 'evt_nope', limit: 5 }, late.print),
    ).rejects.toThrow('No event evt_nope in sync.events');

    const stats = printer();
    await webhooksStats(database.pool, { since: start }, stats.print, { json: true });
    const figures = JSON.parse(stats.lines[0] ?? '[]') as Array<Record<string, unknown>>;
    const flakyStats = figures.find((f) => f.endpointId === flaky.id);
    expect(flakyStats).toMatchObject({
      attempts: 3,
      succeeded: 1,
      failed: 2,
      gaveUp: 0,
      enabled: true,
      lastSuccessAt: success.toISOString(),
      lastFailureAt: lastFailure.toISOString(),
    });
    expect(flakyStats?.successRate).toBeCloseTo(1 / 3, 6);
    expect(typeof flakyStats?.p50Ms).toBe('number');
    expect(flakyStats?.p95Ms as number).toBeGreaterThanOrEqual(flakyStats?.p50Ms as number);
    expect(figures.find((f) => f.endpointId === gone.id)).toMatchObject({
      attempts: 1,
      gaveUp: 1,
      successRate: 0,
      enabled: false,
      disabledBy: 'failure',
      lastSuccessAt: null,
    });
    expect(figures.find((f) => f.endpointId === paused.id)).toMatchObject({
      attempts: 0,
      successRate: null,
      p50Ms: null,
      disabledBy: 'operator',
    });
    const text = printer();
    await webhooksStats(database.pool, { endpointId: flaky.id, since: start }, text.print);
    expect(text.lines).toEqual([
      `since ${start.toISOString()}:`,
      expect.stringMatching(
        new RegExp(
          `^${flaky.id} {2}enabled {2}3 attempts \\(1 succeeded, 2 failed, 0 gave up\\) {2}success 33\\.3% {2}p50 \\d+ ms {2}p95 \\d+ ms {2}last success \\S+ {2}last failure \\S+$`,
        ),
      ),
    ]);
    await expect(webhooksStats(database.pool, { endpointId: 'ep_nope' }, text.print)).rejects.toThrow(
      'No endpoint ep_nope',
    );

    // /metrics: the same figures, one series per endpoint; disabled endpoints say by whom.
    setEndpointFiguresSource(endpointFiguresOnce(database.pool, () => new Date()));
    const exposition = await metricsRegistry.metrics();
    const disabled = samples(exposition, 'fulfillment_webhook_endpoint_disabled');
    expect(disabled).toEqual(
      new Map([
        [`{endpoint="${flaky.id}",reason=""}`, 0],
        [`{endpoint="${gone.id}",reason="failure"}`, 1],
        [`{endpoint="${paused.id}",reason="operator"}`, 1],
      ]),
    );
    expect(samples(exposition, 'fulfillment_webhook_endpoint_attempts_24h')).toEqual(
      new Map([
        [`{endpoint="${flaky.id}"}`, 3],
        [`{endpoint="${gone.id}"}`, 1],
        [`{endpoint="${paused.id}"}`, 0],
      ]),
    );
    const ratio = samples(exposition, 'fulfillment_webhook_endpoint_success_ratio_24h');
    expect(ratio.get(`{endpoint="${flaky.id}"}`)).toBeCloseTo(1 / 3, 6);
    expect(ratio.has(`{endpoint="${paused.id}"}`)).toBe(false);
    expect(samples(exposition, 'fulfillment_webhook_endpoint_last_success_timestamp_seconds')).toEqual(
      new Map([[`{endpoint="${flaky.id}"}`, success.getTime() / 1000]]),
    );
    expect(samples(exposition, 'fulfillment_webhook_endpoint_duration_p95_seconds_24h').size).toBe(2);
  });
});
