import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { writeEvents } from '../../src/events/outbox.ts';
import { createStatusReadModel, type StatusSnapshot } from '../../src/http/status/readModel.ts';
import { createDeliveries } from '../../src/webhooks/delivery/deliveryStates.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { testEvent } from '../webhooks/harness.ts';

/**
 * What the status page reads, from a database in a known state: every scheduled stream x scope
 * (never-synced ones too), its last success and last error, withheld vanishes where the run log
 * records them, endpoints with health and backlog (never a secret nor a URL's query), the relay's
 * backlog and the latest events with their deliveries.
 */

let t: TestDatabase;
const SECRET = 'whsec_c3RhdHVzLXBhZ2UtdGVzdA==';
const NOW = new Date();
const ago = (seconds: number) => new Date(NOW.getTime() - seconds * 1000);
const config = () =>
  loadConfig({ DATABASE_URL: t.url, FULFILLMENT_SUPPLIER_IDS: 'SUP1', FULFILLMENT_ACCOUNT_NUMBERS: '1001' });
let endpointId = '';
const events = { history: testEvent(), sent: testEvent(), waiting: testEvent() };

beforeAll(async () => {
  t = await createTestDatabase();
  await t.pool.query(
    `INSERT INTO sync.cursors (stream, scope, last_success_at) VALUES ('shipments', '1001', $1), ('orders', '1001', $2)`,
    [ago(30), ago(4000)],
  );
  await t.pool.query(
    `INSERT INTO sync.runs (stream, scope, started_at, finished_at, status, error) VALUES
       ('shipments', '1001', $1, $1, 'succeeded', NULL),
       ('returns', '1001', $2, $2, 'failed', 'upstream answered 503 three times'),
       ('returns', '1001', $3, NULL, 'running', NULL)`,
    [ago(31), ago(50), ago(5)],
  );
  const { rows } = await t.pool.query<{ id: string }>(
    `INSERT INTO sync.webhook_endpoints (url, secret, failing_since)
     VALUES ('https://hooks.example.com/in?token=abc', $1, $2) RETURNING id`,
    [SECRET, ago(1200)],
  );
  endpointId = rows[0]!.id;
  await writeEvents(t.pool, [events.sent], { stream: 'shipments', scope: '1001', suppressed: false });
  await writeEvents(t.pool, [events.history], { stream: 'shipments', scope: '1001', suppressed: true });
  await writeEvents(t.pool, [events.waiting], { stream: 'returns', scope: '1001', suppressed: false });
  await t.pool.query('UPDATE sync.events SET dispatched_at = $2 WHERE id = $1', [events.sent.id, ago(300)]);
  await createDeliveries(t.pool, [{ endpointId, eventId: events.sent.id }], { now: ago(300) });
});
afterAll(async () => {
  await t?.close();
});

describe('status read model', () => {
  let snapshot: StatusSnapshot;
  beforeAll(async () => {
    snapshot = await createStatusReadModel(t.pool, config(), () => NOW)();
  });

  it('lists every scheduled stream x scope, never-synced ones too, and any other with a cursor', () => {
    const keys = snapshot.streams.map((s) => `${s.stream}/${s.scope}`).sort();
    expect(keys).toEqual(
      [
        'inventory/SUP1',
        'inventory_activity/SUP1',
        'invoices/1001',
        'orders/1001',
        'products/SUP1',
        'returns/1001',
        'shipments/1001',
        'transfers_in/SUP1',
        'transfers_out/SUP1',
      ].sort(),
    );
    const shipments = snapshot.streams.find((s) => s.stream === 'shipments')!;
    expect(shipments.lastSuccessAt?.getTime()).toBe(ago(30).getTime());
    expect(shipments.rule).toEqual({ kind: 'target', seconds: 60 });
    expect(snapshot.streams.find((s) => s.stream === 'invoices')?.lastSuccessAt).toBeNull();
    expect(snapshot.streams.find((s) => s.stream === 'orders')?.rule).toEqual({ kind: 'on-demand' });
    expect(snapshot.streamsNotShown).toBe(0);
  });

  it('gives the last error of the day and the newest finished run', () => {
    const returns = snapshot.streams.find((s) => s.stream === 'returns')!;
    expect(returns.lastError).toBe('upstream answered 503 three times');
    expect(returns.lastErrorAt?.getTime()).toBe(ago(50).getTime());
    // The running run is not finished: the failed one is the newest that is.
    expect(returns.lastRunStatus).toBe('failed');
  });

  it('gives each endpoint its health and backlog, without its secret or its URL’s query', () => {
    expect(snapshot.endpoints).toHaveLength(1);
    const endpoint = snapshot.endpoints[0]!;
    expect(endpoint).toMatchObject({
      id: endpointId,
      url: 'https://hooks.example.com/in?…',
      enabled: true,
      pending: 1,
    });
    expect(endpoint.failingSince?.getTime()).toBe(ago(1200).getTime());
    expect(endpoint.oldestPendingAt?.getTime()).toBe(ago(300).getTime());
    const text = JSON.stringify(snapshot);
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('token=abc');
  });

  it('gives the relay’s backlog and the latest events sent to subscribers, newest first, with where each stands', () => {
    expect(snapshot.relay.undispatched).toBe(1);
    // History (a first load's events) is stored, never sent: not among them.
    expect(snapshot.events.map((e) => e.id)).toEqual([events.waiting.id, events.sent.id]);
    const [waiting, sent] = snapshot.events;
    expect(waiting).toMatchObject({ dispatchedAt: null, suppressed: false, stream: 'returns' });
    expect(sent).toMatchObject({ pending: 1, delivered: 0 });
  });

  it('shows the rows the newest run withheld, and no figure where no run finished', async () => {
    await t.pool.query(
      `INSERT INTO sync.runs (stream, scope, started_at, finished_at, status, vanish_withheld)
       VALUES ('inventory', 'SUP1', $1, $1, 'succeeded', 4)`,
      [ago(10)],
    );
    const after = await createStatusReadModel(t.pool, config(), () => NOW)();
    expect(after.streams.find((s) => s.stream === 'inventory')?.vanishWithheld).toBe(4);
    expect(after.streams.find((s) => s.stream === 'shipments')?.vanishWithheld).toBe(0);
    expect(after.streams.find((s) => s.stream === 'invoices')?.vanishWithheld).toBeNull();
  });
});
