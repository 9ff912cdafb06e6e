import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import type { Config } from '../../src/config/types.ts';
import { thresholdFor } from '../../src/events/rules/inventory.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { trackingEventKey } from '../../src/events/trackingEventKey.ts';
import { type RunningSimulator, type SimTruth, startSimulator } from '../../src/simulator/index.ts';
import { inventoryStream } from '../../src/streams/inventory.ts';
import { invoicesStream } from '../../src/streams/invoices.ts';
import { ordersStream } from '../../src/streams/orders.ts';
import { returnsStream } from '../../src/streams/returns.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { transfersInStream } from '../../src/streams/transfersIn.ts';
import { transfersOutStream } from '../../src/streams/transfersOut.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { Scope, StreamDefinition, Window } from '../../src/sync/types.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { simulatorClient } from '../helpers/syncHarness.ts';
import { StoredStates } from './storedStates.ts';

/**
 * A simulated week synced every few hours with the event sink wired in: every transition the
 * simulator's truth reached yields its event exactly once, and re-running every window adds none.
 */

const logger = pino({ level: 'silent' });
const START = new Date('2026-03-02T08:00:00Z');
const HISTORY_DAYS = 3;
// History days plus live days make the simulated week; SLOW_TESTS=1 runs two live weeks.
const DAYS = process.env.SLOW_TESTS === '1' ? 14 : 4;
// A week at 12-hour steps by default (the machine is shared); SLOW_TESTS=1 runs two weeks at 6 hours.
const STEP_HOURS = process.env.SLOW_TESTS === '1' ? 6 : 12;

type AnyStream = StreamDefinition<never, FulfillmentClient>;
const SUPPLIER_STREAMS = [inventoryStream, transfersInStream, transfersOutStream] as unknown as AnyStream[];
const ACCOUNT_STREAMS = [
  shipmentsStream,
  returnsStream,
  invoicesStream,
  ordersStream,
] as unknown as AnyStream[];

let t: TestDatabase;
let sim: RunningSimulator;
let client: FulfillmentClient;
let config: Config;
let truth: SimTruth;

interface StoredEvent {
  id: string;
  type: string;
  subject_key: string;
  data: { current: Record<string, unknown>; changes: Array<{ field: string; from: unknown; to: unknown }> };
}
let events: StoredEvent[] = [];
const states = new StoredStates();

async function syncAll(windowsFor?: (stream: AnyStream) => readonly Window[]): Promise<void> {
  const now = new Date(sim.clock.now());
  const eventSink = createEventSink({
    timezone: config.timezone,
    thresholds: config.events,
  });
  const run = async (stream: AnyStream, scope: Scope) => {
    const windows = windowsFor?.(stream);
    const result = await runStream({
      pool: t.pool,
      client,
      config,
      logger,
      stream,
      scope,
      now,
      eventSink,
      windows,
    });
    if (result.status !== 'succeeded')
      throw new Error(`${stream.name} ${scope.id}: ${result.status} ${result.error ?? ''}`);
  };
  const world = sim.truth();
  for (const id of world.suppliers) for (const s of SUPPLIER_STREAMS) await run(s, { kind: 'supplier', id });
  for (const id of world.accounts) for (const s of ACCOUNT_STREAMS) await run(s, { kind: 'account', id });
}

async function loadEvents(): Promise<StoredEvent[]> {
  return (await t.pool.query('SELECT id, type, subject_key, data FROM sync.events ORDER BY seq'))
    .rows as StoredEvent[];
}

function countBy(type: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const e of events)
    if (e.type === type) counts.set(e.subject_key, (counts.get(e.subject_key) ?? 0) + 1);
  return counts;
}

/** Keys whose count differs from the expected one (missing keys count 0). */
function wrongCounts(type: string, expected: Map<string, number>): string[] {
  const actual = countBy(type);
  const keys = new Set([...expected.keys(), ...actual.keys()]);
  return [...keys]
    .filter((key) => (actual.get(key) ?? 0) !== (expected.get(key) ?? 0))
    .map((key) => `${type} ${key}: ${actual.get(key) ?? 0} instead of ${expected.get(key) ?? 0}`);
}

const ones = (keys: Iterable<string>) => new Map([...keys].map((key) => [key, 1]));
const flat = <T>(byScope: Record<string, T[]>) =>
  Object.entries(byScope).flatMap(([scope, list]) => list.map((r) => ({ scope, r })));
const reached = (kind: string, to: string) =>
  new Set(truth.history.filter((h) => h.kind === kind && h.change.to === to).map((h) => h.key));

beforeAll(async () => {
  t = await createTestDatabase();
  sim = await startSimulator({
    seed: 7,
    clock: 'manual',
    start: START,
    volume: { historyDays: HISTORY_DAYS, suppliers: 1, winesPerSupplier: 8 },
  });
  config = loadConfig({
    DATABASE_URL: t.url,
    FULFILLMENT_SYNC_START: new Date(START.getTime() - (HISTORY_DAYS + 1) * 86_400_000).toISOString(),
  });
  client = simulatorClient(sim, config);
  for (let hour = 0; hour <= DAYS * 24; hour += STEP_HOURS) {
    if (hour > 0) sim.advance(STEP_HOURS * 60);
    await syncAll();
    await states.snapshot(t.pool);
  }
  // Orders named by the last shipments and returns are fetched on the next run.
  await syncAll();
  await states.snapshot(t.pool);
  truth = sim.truth();
  events = await loadEvents();
}, 600_000);
afterAll(async () => {
  await sim?.close();
  await t?.close();
});

describe('events over a simulated week', () => {
  it('shipments: created once each, delivered exactly once for every one that reached DELIVERED, every scan once', () => {
    const shipments = flat(truth.shipmentUpdates).map(({ r }) => r);
    expect(shipments.length).toBeGreaterThan(0);
    const delivered = new Set([
      ...reached('shipment.status_changed', 'DELIVERED'),
      ...shipments.filter((s) => s.header.statusCode === 'DELIVERED').map((s) => s.header.containerId),
    ]);
    expect(delivered.size).toBeGreaterThan(0);
    const scans = new Map(
      shipments.map((s) => [
        s.header.containerId,
        new Set((s.events ?? []).map((e) => trackingEventKey(e, config))).size,
      ]),
    );
    const final = (status: string) =>
      ones(shipments.filter((s) => s.header.statusCode === status).map((s) => s.header.containerId));
    expect([
      ...wrongCounts('shipment.created', ones(shipments.map((s) => s.header.containerId))),
      ...wrongCounts('shipment.delivered', ones(delivered)),
      ...wrongCounts('shipment.tracking_event', new Map([...scans].filter(([, n]) => n > 0))),
    ]).toEqual([]);
    for (const status of ['EXCEPTION', 'RETURNED']) {
      const type = `shipment.${status.toLowerCase()}`;
      const counts = countBy(type);
      for (const key of final(status).keys()) expect(counts.get(key), `${type} ${key}`).toBe(1);
    }
    // Every status change between stored states, and every time EXCEPTION was reached (again), is
    // one event: a repeated transition is a new episode, not a duplicate.
    const changed = states.statusChanges('shipment');
    expect(changed.size).toBeGreaterThan(0);
    expect([
      ...wrongCounts('shipment.status_changed', changed),
      ...wrongCounts(
        'shipment.exception',
        states.expected('shipment', (_before, after) => after === 'EXCEPTION'),
      ),
    ]).toEqual([]);
  });

  it('returns: created once each, resolved exactly once for every RESOLVED one', () => {
    const returns = flat(truth.returns).map(({ r }) => r);
    expect(returns.length).toBeGreaterThan(0);
    expect([
      ...wrongCounts('return.created', ones(returns.map((r) => String(r.shipReturnId)))),
      ...wrongCounts(
        'return.resolved',
        ones(returns.filter((r) => r.processingStatusCode === 'RESOLVED').map((r) => String(r.shipReturnId))),
      ),
    ]).toEqual([]);
  });

  it('returns: one status_changed per change of the stored processing status', () => {
    const expected = states.statusChanges('return');
    expect(expected.size).toBeGreaterThan(0);
    expect(wrongCounts('return.status_changed', expected)).toEqual([]);
  });

  it('invoices: created once each, paid exactly once for every invoice paid off', () => {
    const invoices = flat(truth.invoices).map(({ r }) => r);
    expect(invoices.length).toBeGreaterThan(0);
    const paid = invoices.filter((i) => i.balanceDue === 0 && (i.totalInvoiceAmount ?? 0) !== 0);
    expect([
      ...wrongCounts('invoice.created', ones(invoices.map((i) => i.invoiceNumber))),
      ...wrongCounts('invoice.paid', ones(paid.map((i) => i.invoiceNumber))),
    ]).toEqual([]);
  });

  it('invoices: one balance_changed per change of the stored balanceDue', () => {
    const expected = states.statusChanges('invoice');
    expect(expected.size).toBeGreaterThan(0);
    expect(wrongCounts('invoice.balance_changed', expected)).toEqual([]);
  });

  it('transfers: created once each; every received IN has received events ending at its truth quantities', () => {
    const ins = flat(truth.transfersIn);
    const outs = flat(truth.transfersOut);
    expect(ins.length).toBeGreaterThan(0);
    expect([
      ...wrongCounts(
        'transfer_in.created',
        ones(ins.map(({ scope, r }) => `${r.header.supplierId ?? scope}:${r.header.orderNumber}`)),
      ),
      ...wrongCounts(
        'transfer_out.created',
        ones(outs.map(({ scope, r }) => `${r.supplierId ?? scope}:${r.orderNumber}`)),
      ),
    ]).toEqual([]);
    const received = ins.filter(({ r }) => (r.lineItems ?? []).some((l) => (l.qtyReceived ?? 0) > 0));
    expect(received.length).toBeGreaterThan(0);
    for (const { scope, r } of received) {
      const key = `${r.header.supplierId ?? scope}:${r.header.orderNumber}`;
      const last = events.filter((e) => e.type === 'transfer_in.received' && e.subject_key === key).at(-1);
      expect(last, key).toBeDefined();
      const lines = (last?.data.current.lineItems ?? []) as Array<{
        lineNumber: number;
        qtyReceived: number;
      }>;
      const byLine = (list: Array<{ lineNumber?: number | null; qtyReceived?: number | null }>) =>
        list.map((l) => `${l.lineNumber}:${l.qtyReceived ?? 0}`).sort();
      expect(byLine(lines), key).toEqual(byLine(r.lineItems ?? []));
    }
    // Status changes end at the truth status.
    const last = (type: string, pick: (current: Record<string, unknown>) => unknown) => {
      const out = new Map<string, unknown>();
      for (const e of events) if (e.type === type) out.set(e.subject_key, pick(e.data.current));
      return out;
    };
    const inStatus = last(
      'transfer_in.status_changed',
      (c) => (c.header as { statusCode?: unknown }).statusCode,
    );
    const outStatus = last('transfer_out.status_changed', (c) => c.statusCode);
    expect(inStatus.size).toBeGreaterThan(0);
    expect(outStatus.size).toBeGreaterThan(0);
    const compared = {
      in: ins.filter(({ scope, r }) =>
        inStatus.has(`${r.header.supplierId ?? scope}:${r.header.orderNumber}`),
      ),
      out: outs.filter(({ scope, r }) => outStatus.has(`${r.supplierId ?? scope}:${r.orderNumber}`)),
    };
    expect(compared.in.length).toBeGreaterThan(0);
    expect(compared.out.length).toBeGreaterThan(0);
    expect(wrongCounts('transfer_out.status_changed', states.statusChanges('transfer_out'))).toEqual([]);
    const wrong = [
      ...ins
        .map(
          ({ scope, r }) =>
            [`${r.header.supplierId ?? scope}:${r.header.orderNumber}`, r.header.statusCode] as const,
        )
        .filter(([key, status]) => inStatus.has(key) && inStatus.get(key) !== status),
      ...outs
        .map(({ scope, r }) => [`${r.supplierId ?? scope}:${r.orderNumber}`, r.statusCode] as const)
        .filter(([key, status]) => outStatus.has(key) && outStatus.get(key) !== status),
    ];
    expect(wrong).toEqual([]);
  });

  it('inventory: out_of_stock and restocked alternate, ending in the truth stock state', () => {
    const rows = flat(truth.ownedInventory);
    expect(rows.length).toBeGreaterThan(0);
    const out = countBy('inventory.out_of_stock');
    const restocked = countBy('inventory.restocked');
    const problems: string[] = [];
    for (const { scope, r } of rows) {
      const key = [scope, r.warehouseCode ?? '', r.subInventoryCode ?? '', r.sku].join(':');
      const balance = (out.get(key) ?? 0) - (restocked.get(key) ?? 0);
      const expected = r.qtyAvailableToSell === 0 ? 1 : 0;
      if (balance !== expected)
        problems.push(
          `${key}: out ${out.get(key) ?? 0}, restocked ${restocked.get(key) ?? 0}, ats ${r.qtyAvailableToSell}`,
        );
    }
    expect(problems).toEqual([]);
    expect(countBy('inventory.changed').size).toBeGreaterThan(0);
  });

  it('inventory: one low_stock per crossing below the threshold in the stored states', () => {
    const expected = states.expected('inventory', (before, after, state) => {
      const threshold = thresholdFor(state.detail ?? '', config.events);
      return (
        typeof after === 'number' && after < threshold && (before === null || Number(before) >= threshold)
      );
    });
    expect(expected.size).toBeGreaterThan(0);
    expect(wrongCounts('inventory.low_stock', expected)).toEqual([]);
  });

  it('orders: status changes end at the truth status, and every active hold was announced', async () => {
    const stored = new Set(
      (await t.pool.query('SELECT account_number, order_number FROM fulfillment.orders')).rows.map(
        (r) => `${r.account_number}:${r.order_number}`,
      ),
    );
    expect(stored.size).toBeGreaterThan(0);
    const lastStatus = new Map<string, unknown>();
    for (const e of events) {
      if (e.type !== 'order.status_changed') continue;
      lastStatus.set(e.subject_key, (e.data.current.header as { orderStatusCode?: unknown }).orderStatusCode);
    }
    expect(lastStatus.size).toBeGreaterThan(0);
    const added = countBy('order.hold_added');
    const problems: string[] = [];
    let compared = 0;
    for (const { scope, r } of flat(truth.orderDetails)) {
      const key = `${r.header.accountNumber ?? scope}:${r.header.orderNumber}`;
      if (!stored.has(key)) continue;
      if (lastStatus.has(key)) compared += 1;
      if (lastStatus.has(key) && lastStatus.get(key) !== r.header.orderStatusCode) {
        problems.push(
          `${key}: last status_changed to ${lastStatus.get(key)}, truth ${r.header.orderStatusCode}`,
        );
      }
      const active = (r.holds ?? []).filter((h) => !h.releaseDate).length;
      if ((added.get(key) ?? 0) < active)
        problems.push(`${key}: ${active} active holds, ${added.get(key) ?? 0} announced`);
    }
    expect(problems).toEqual([]);
    // The status check above compared real orders, not an empty intersection.
    expect(compared).toBeGreaterThan(0);
  });

  it('every event names the run that derived it: a stored run of its stream and scope counting it', async () => {
    const orphans = await t.pool.query(
      `SELECT e.id, e.run_id FROM sync.events e LEFT JOIN sync.runs r ON r.id = e.run_id
        WHERE r.id IS NULL OR r.stream <> e.stream OR r.scope <> e.scope OR r.status NOT IN ('succeeded', 'partial')`,
    );
    expect(events.length).toBeGreaterThan(0);
    expect(orphans.rows).toEqual([]);
    const miscounted = await t.pool.query(
      `SELECT r.id, r.events, coalesce(e.n, 0)::int AS n FROM sync.runs r
         LEFT JOIN (SELECT run_id, count(*) AS n FROM sync.events GROUP BY run_id) e ON e.run_id = r.id
        WHERE r.events <> coalesce(e.n, 0)`,
    );
    expect(miscounted.rows).toEqual([]);
  });

  it('ids are unique and re-running every window from the start yields zero new events', async () => {
    expect(new Set(events.map((e) => e.id)).size).toBe(events.length);
    await syncAll();
    const start = config.syncStart ?? START;
    const now = new Date(sim.clock.now());
    await syncAll((stream) =>
      stream.planWindows({
        cursor: { position: undefined, lastSuccessAt: undefined },
        now,
        settings: config.streams[stream.name],
        timezone: config.timezone,
        start,
      }),
    );
    const after = await loadEvents();
    expect(after.length).toBe(events.length);
  });
});
