import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShipmentUpdate } from '../../src/api/records/index.ts';
import { productDetailSchema, transferInDetailSchema } from '../../src/api/records/index.ts';
import {
  excludedKeys,
  type PoisonedRecord,
  type PoisonReport,
  type RunningSimulator,
  type SimulatorOptions,
  startSimulator,
  truthAsSynced,
} from '../../src/simulator/index.ts';
import { withLoneSurrogate, withNul } from '../../src/simulator/poison/values.ts';
import { call, type Enveloped } from './helpers.ts';

/**
 * The poison scenario at the HTTP level over a simulated week (manual clock, a step every 8 hours, as
 * the engine's week tests sync): every poison is served as a misbehaving upstream serves it exactly
 * while the report says so, to the one record it names, and the same seed without the scenario
 * answers everything else identically.
 */

const START = new Date('2026-03-02T08:00:00Z');
const WORLD: SimulatorOptions = {
  seed: 11,
  clock: 'manual',
  start: START,
  volume: { historyDays: 3, suppliers: 2, winesPerSupplier: 8 },
};
const STEP_MINUTES = 8 * 60;
const STEPS = 21;

let poisoned: RunningSimulator;
let plain: RunningSimulator;
/** Each poison kind (by stream) seen active and seen inactive during the week. */
const seen = new Map<string, { active: number; inactive: number }>();

beforeAll(async () => {
  [poisoned, plain] = await Promise.all([
    // No 429s here: this file checks content; the rate limiting has its own test below.
    startSimulator({ ...WORLD, scenario: 'poison', poison: { rateLimitRate: 0 } }),
    startSimulator(WORLD),
  ]);
});
afterAll(async () => {
  await Promise.all([poisoned?.close(), plain?.close()]);
});

type Row = Record<string, unknown>;
const rowsOf = (e: Enveloped) => e.body.payload as Row[];
const text = (v: unknown) => JSON.stringify(v);

/** GET from both worlds. */
async function both(path: string, query: Record<string, string | undefined> = {}) {
  const [p, q] = await Promise.all([call(poisoned, 'GET', path, query), call(plain, 'GET', path, query)]);
  return { p, q };
}

/**
 * The records of `keys` in both answers, asserting that every other record is equal (the poisons
 * of one operation are the only difference between the two worlds).
 */
function onlyDifferences(
  p: Row[],
  q: Row[],
  keyOf: (r: Row) => string,
  keys: readonly string[],
  key: string,
): { p?: Row; q?: Row } {
  const others = (rows: Row[]) => rows.filter((r) => !keys.includes(keyOf(r)));
  expect(others(p).map(keyOf)).toEqual(others(q).map(keyOf));
  expect(others(p).map(text)).toEqual(others(q).map(text));
  return { p: p.find((r) => keyOf(r) === key), q: q.find((r) => keyOf(r) === key) };
}

/** A report with keys cut short, so a failing comparison does not print 80 KB. */
const short = (r: PoisonReport | undefined) =>
  r && { ...r, records: r.records.map((x) => ({ ...x, key: x.key.slice(0, 40), length: x.key.length })) };

const header = (r: Row) => r.header as Row;
const isActive = (r: PoisonedRecord, now: number) =>
  Date.parse(r.from) <= now && (r.until === undefined || now < Date.parse(r.until));

/** Depth of nested objects, counted without recursion. */
function depthOf(value: unknown): number {
  let depth = 0;
  let v = value;
  while (v !== null && typeof v === 'object') {
    depth += 1;
    v = (v as Row).node;
  }
  return depth;
}

/** Checks one poison against the HTTP answers of both worlds at `now`. */
async function checkPoison(r: PoisonedRecord, report: PoisonReport, now: number): Promise<void> {
  const active = isActive(r, now);
  const tally = seen.get(`${r.stream}:${r.kind}`) ?? { active: 0, inactive: 0 };
  tally[active ? 'active' : 'inactive'] += 1;
  seen.set(`${r.stream}:${r.kind}`, tally);
  const A = report.accountNumber;
  const S = report.supplierId;
  const [, second] = r.key.split('/') as [string, string];
  // Every poison of the same stream served now: the records the answers may differ in.
  const keysOf = (x: PoisonedRecord) =>
    report.records.filter((y) => y.stream === x.stream && isActive(y, now)).map((y) => y.key);
  switch (`${r.stream}:${r.kind}`) {
    case 'shipments:nul':
    case 'shipments:lone-surrogate': {
      const { p, q } = await both('Shipments/Updates', { accountNumber: A });
      const pair = onlyDifferences(
        rowsOf(p),
        rowsOf(q),
        (x) => String(header(x).containerId),
        keysOf(r),
        r.key,
      );
      if (r.kind === 'nul') {
        // A real server writes the NUL as the escape \u0000 in the JSON text.
        expect(p.text.split('\\u0000')).toHaveLength(2);
        const events = (x?: Row) => (x?.events ?? []) as Row[];
        const poisonedEvent = events(pair.p).find((e) => String(e.description).includes('\u0000'));
        const plainEvent = events(pair.q).find((e) => e.eventTime === poisonedEvent?.eventTime);
        expect(r.field).toBe(`events[eventTime=${poisonedEvent?.eventTime}].description`);
        expect(poisonedEvent?.description).toBe(withNul(String(plainEvent?.description)));
        expect(
          text({ ...pair.p, events: events(pair.p).map((e) => (e === poisonedEvent ? plainEvent : e)) }),
        ).toBe(text(pair.q));
      } else {
        expect(p.text.split('\\ud800')).toHaveLength(2);
        const carrier = String(header(pair.q as Row).carrierName);
        expect(header(pair.p as Row).carrierName).toBe(withLoneSurrogate(carrier));
        expect(text({ ...pair.p, header: { ...header(pair.p as Row), carrierName: carrier } })).toBe(
          text(pair.q),
        );
      }
      return;
    }
    case 'transfers_in:malformed-detail':
    case 'transfers_in:missing-detail': {
      const { p, q } = await both(`Transfers/INs/${S}/${second}`);
      const list = await both('Transfers/INs', { supplierId: S });
      // Listed all along, and the list itself is not poisoned.
      expect(rowsOf(list.p).some((x) => x.orderNumber === second)).toBe(true);
      expect(list.p.text).toBe(list.q.text);
      if (!active) expect(p.text).toBe(q.text);
      else if (r.kind === 'missing-detail') {
        expect([p.status, p.body]).toEqual([
          404,
          { isSuccess: false, message: 'Transfer not found', payload: null },
        ]);
        expect(q.status).toBe(200);
      } else {
        expect(p.status).toBe(200);
        const lines = (p.body.payload as Row).lineItems as Row[];
        expect(lines[0]?.qtyReceived).toBe('abc');
        expect(transferInDetailSchema.safeParse(p.body.payload).success).toBe(false);
        const plainLines = (q.body.payload as Row).lineItems as Row[];
        expect(text({ ...(p.body.payload as Row), lineItems: [plainLines[0], ...lines.slice(1)] })).toBe(
          text(q.body.payload),
        );
      }
      return;
    }
    case 'products:malformed-detail':
    case 'products:missing-detail': {
      const { p, q } = await both(`Products/${S}/${second}`);
      const list = await both('Products/Owned/Listing', { supplierId: S });
      expect(rowsOf(list.p).some((x) => x.sku === second)).toBe(true);
      expect(list.p.text).toBe(list.q.text);
      expect(q.status).toBe(200);
      if (r.kind === 'missing-detail')
        expect([p.status, p.body]).toEqual([
          404,
          { isSuccess: false, message: 'Product not found', payload: null },
        ]);
      else {
        const infos = (p.body.payload as Row).sellingInfos as Row[];
        expect(infos[0]?.retailPrice).toBe('n/a');
        expect(productDetailSchema.safeParse(p.body.payload).success).toBe(false);
      }
      return;
    }
    case 'orders:detail-503': {
      const { p, q } = await both(`Orders/Detail/${A}/${second}`);
      expect([p.status, p.body]).toEqual([
        503,
        { isSuccess: false, message: 'Service Unavailable', payload: null },
      ]);
      expect(q.status).toBe(200);
      // The order is named by a shipment of the week, which changes (scans) after it is named.
      const shipments = rowsOf((await both('Shipments/Updates', { accountNumber: A })).q);
      expect(shipments.some((s) => header(s).orderNumber === second)).toBe(true);
      return;
    }
    case 'inventory:wrong-type': {
      const [, warehouse, , sku] = r.key.split('/') as [string, string, string, string];
      const { p, q } = await both('Inventories/Owned', {
        supplierId: S,
        warehouseCode: warehouse,
        onHandOnly: 'false',
      });
      const keyOf = (x: Row) => `${x.subInventoryCode}/${x.sku}`;
      const v = r.vanishing as NonNullable<PoisonedRecord['vanishing']>;
      const vanishingKey = v.key.split('/').slice(2).join('/');
      const vanishingRow = rowsOf(p).find((x) => keyOf(x) === vanishingKey);
      // The other SKU of the warehouse really vanishes, and comes back.
      if (now < Date.parse(v.vanishesAt)) expect(vanishingRow?.qtyOnHand).toBe(6);
      else if (now < Date.parse(v.restockedAt)) expect(vanishingRow).toBeUndefined();
      else expect(vanishingRow?.qtyOnHand).toBe(12);
      const pair = onlyDifferences(
        rowsOf(p).filter((x) => keyOf(x) !== vanishingKey),
        rowsOf(q),
        keyOf,
        [`FG/${sku}`],
        `FG/${sku}`,
      );
      if (active) {
        expect(p.text).toContain('"qtyOnHand":"lots"');
        expect(pair.p).toEqual({ ...pair.q, qtyOnHand: 'lots' });
      } else expect(pair.p).toEqual(pair.q);
      return;
    }
    case 'invoices:int-overflow':
    case 'invoices:oversized-key': {
      const { p, q } = await both('Finances/invoices', { accountNumber: A });
      // The oversized number is the real one padded: compare under the real one.
      const realOf = (n: string) => (n.length > 100 ? n.replace(/-0+$/, '') : n);
      const real = realOf(r.key);
      expect(real.length).toBeLessThan(20);
      const ps = rowsOf(p).map((x) => ({ ...x, invoiceNumber: realOf(String(x.invoiceNumber)) }));
      const pair = onlyDifferences(
        ps,
        rowsOf(q),
        (x) => String(x.invoiceNumber),
        keysOf(r).map(realOf),
        real,
      );
      if (r.kind === 'int-overflow') {
        expect(p.text).toContain(`"invoiceNumber":"${real}"`);
        expect(p.text).toContain('"orderCount":3000000000');
        expect(pair.p).toEqual({ ...pair.q, orderCount: 3_000_000_000 });
      } else {
        expect(r.key).toHaveLength(80 * 1024);
        expect(rowsOf(p).filter((x) => String(x.invoiceNumber).length > 100)).toHaveLength(1);
        expect(pair.p).toEqual(pair.q);
      }
      return;
    }
    case 'returns:deep-nesting': {
      const { p, q } = await both('Shipments/Returns', { accountNumber: A });
      const pair = onlyDifferences(rowsOf(p), rowsOf(q), (x) => String(x.shipReturnId), keysOf(r), r.key);
      const { extendedAttributes, ...rest } = pair.p as Row;
      expect(depthOf(extendedAttributes)).toBe(8000);
      expect(text(rest)).toBe(text(pair.q));
      expect(rowsOf(p).filter((x) => 'extendedAttributes' in x)).toHaveLength(1);
      return;
    }
    default:
      throw new Error(`no check for ${r.stream}:${r.kind}`);
  }
}

let finalReport: PoisonReport;
/** The report of every poison at the end of the week (the first describe fills it). */
const fullReport = () => finalReport;

describe('the poison scenario over a simulated week', () => {
  it('serves each poison exactly while the report says so, to the one record it names', async () => {
    for (let step = 0; step <= STEPS; step++) {
      if (step > 0) {
        poisoned.advance(STEP_MINUTES);
        plain.advance(STEP_MINUTES);
      }
      const now = poisoned.clock.now();
      const report = poisoned.poison() as PoisonReport;
      for (const r of [...report.records, ...report.scheduled]) await checkPoison(r, report, now);
    }
    finalReport = poisoned.poison() as PoisonReport;
    expect(finalReport.pending).toEqual([]);
    expect(finalReport.scheduled).toEqual([]);
    expect(finalReport.records.map((r) => `${r.stream}:${r.kind}:${r.expected}`).sort()).toEqual([
      'inventory:wrong-type:quarantined',
      'invoices:int-overflow:quarantined',
      'invoices:oversized-key:quarantined',
      'orders:detail-503:quarantined',
      'products:malformed-detail:quarantined',
      'products:missing-detail:quarantined',
      'returns:deep-nesting:quarantined',
      'shipments:lone-surrogate:repaired',
      'shipments:nul:repaired',
      'transfers_in:malformed-detail:detail-refetch',
      'transfers_in:missing-detail:quarantined',
    ]);
    // Every poison was checked while served; the timed ones also before (or after) it.
    expect([...seen].filter(([, v]) => v.active > 0).map(([k]) => k)).toHaveLength(11);
    expect(seen.get('transfers_in:malformed-detail')?.active).toBeGreaterThan(0);
    expect(seen.get('transfers_in:malformed-detail')?.inactive).toBeGreaterThan(0);
    expect(seen.get('inventory:wrong-type')?.inactive).toBeGreaterThan(0);
    // GET /_sim/poison is the same report.
    const res = await fetch(`${poisoned.url}/_sim/poison`);
    expect(short((await res.json()) as PoisonReport)).toEqual(short(finalReport));
    expect((await fetch(`${plain.url}/_sim/poison`)).status).toBe(404);
  });

  it('breaks the IN detail while its list row moves, and heals it a day later', () => {
    const r = finalReport.records.find((x) => x.stream === 'transfers_in' && x.kind === 'malformed-detail');
    if (!r?.listRowChangesAt || !r.until) throw new Error('the malformed IN has no status move or heal time');
    const [supplierId, orderNumber] = r.key.split('/');
    const moves = plain
      .truth()
      .history.filter(
        (h) =>
          h.kind === 'transfer_in.status_changed' &&
          h.key === `${supplierId}|${orderNumber}` &&
          h.at >= r.from &&
          h.at < (r.until as string),
      );
    expect(moves.length).toBeGreaterThan(0);
    // A sync at the start stores the detail intact: it breaks after the start.
    expect(Date.parse(r.from)).toBeGreaterThan(START.getTime());
  });

  it('keeps the real world in its truth: the same as without the scenario except the listed records', () => {
    const A = finalReport.accountNumber;
    const S = finalReport.supplierId;
    const pt = poisoned.truth();
    const qt = plain.truth();
    const find = (kind: string) => {
      const r = finalReport.records.find((x) => x.kind === kind && x.inTruth);
      if (!r) throw new Error(`no ${kind} poison in the truth`);
      return r;
    };
    // Record values are the world's data: the truth holds them.
    const ship = (t: typeof pt, key: string) =>
      (t.shipmentUpdates[A] ?? []).find((x) => x.header.containerId === key) as ShipmentUpdate;
    expect(ship(pt, find('nul').key).events?.filter((e) => e.description?.includes('\u0000'))).toHaveLength(
      1,
    );
    expect(ship(pt, find('lone-surrogate').key).header.carrierName).toMatch(/\ud800/);
    const invoice = (key: string) => (pt.invoices[A] ?? []).find((x) => x.invoiceNumber === key);
    expect(invoice(find('int-overflow').key)?.orderCount).toBe(3_000_000_000);
    expect(invoice(find('oversized-key').key)).toBeDefined();
    const deep = (pt.returns[A] ?? []).find(
      (x) => String(x.shipReturnId) === find('deep-nesting').key,
    ) as Row;
    expect(depthOf(deep.extendedAttributes)).toBe(8000);
    const [, wh, sub, sku] = find('wrong-type').key.split('/');
    const wrong = (pt.ownedInventory[S] ?? []).find(
      (x) => x.warehouseCode === wh && x.subInventoryCode === sub && x.sku === sku,
    ) as Row;
    expect(wrong.qtyOnHand).toBe('lots');
    // Broken answers are not: those records are the world's real ones.
    for (const r of finalReport.records.filter((x) => !x.inTruth)) expect(r.kind).toMatch(/detail/);
    expect(text(pt.transfersIn)).toBe(text(qt.transfersIn));
    expect(text(pt.productDetails)).toBe(text(qt.productDetails));
    expect(text(pt.orderDetails)).toBe(text(qt.orderDetails));

    // As synced: the quarantined records left out, repaired text repaired; the rest is the world
    // of the same seed without the scenario, apart from the vanishing row and the replaced character.
    const a = truthAsSynced(pt, finalReport);
    const b = truthAsSynced(qt, finalReport);
    for (const r of finalReport.records.filter((x) => x.expected === 'quarantined')) {
      const excluded = excludedKeys(finalReport, Date.parse(pt.now))[r.stream];
      expect(excluded.has(r.key)).toBe(true);
    }
    const healed = finalReport.records.find((x) => x.expected === 'detail-refetch') as PoisonedRecord;
    expect(excludedKeys(finalReport, Date.parse(pt.now)).transfers_in.has(healed.key)).toBe(false);
    const surrogate = ship(a, find('lone-surrogate').key);
    const original = ship(b, find('lone-surrogate').key).header.carrierName as string;
    expect(surrogate.header.carrierName).toBe(`${original.slice(0, -1)}\ufffd${original.slice(-1)}`);
    surrogate.header = { ...surrogate.header, carrierName: original };
    const vanishing = find('wrong-type').vanishing?.key.split('/') ?? [];
    const isVanishing = (x: Row) =>
      [S, x.warehouseCode, x.subInventoryCode, x.sku].join('/') === vanishing.join('/');
    expect((a.ownedInventory[S] ?? []).filter(isVanishing).map((x) => x.qtyOnHand)).toEqual([12]);
    a.ownedInventory = {
      ...a.ownedInventory,
      [S]: (a.ownedInventory[S] ?? []).filter((x) => !isVanishing(x)),
    };
    // The oversized invoice is left out of the poison world under its 80 KB number: the plain world
    // has it under the real one.
    const real = find('oversized-key').key.replace(/-0+$/, '');
    b.invoices = { ...b.invoices, [A]: (b.invoices[A] ?? []).filter((x) => x.invoiceNumber !== real) };
    for (const field of Object.keys(b) as Array<keyof typeof b>) expect(a[field], field).toEqual(b[field]);
  });

  it('is the same world for the same seed, however the clock moved, and another for another seed', async () => {
    const [jumped, other] = await Promise.all([
      startSimulator({ ...WORLD, scenario: 'poison', poison: { rateLimitRate: 0 } }),
      startSimulator({ ...WORLD, seed: 12, scenario: 'poison', poison: { rateLimitRate: 0 } }),
    ]);
    try {
      jumped.advance(STEPS * STEP_MINUTES);
      other.advance(STEPS * STEP_MINUTES);
      expect(short(jumped.poison())).toEqual(short(finalReport));
      const truthText = async (s: RunningSimulator) => (await fetch(`${s.url}/_sim/truth`)).text();
      expect(await truthText(jumped)).toBe(await truthText(poisoned));
      const A = finalReport.accountNumber;
      for (const [path, query] of [
        ['Shipments/Updates', { accountNumber: A }],
        ['Shipments/Returns', { accountNumber: A }],
        ['Finances/invoices', { accountNumber: A }],
      ] as const)
        expect((await call(jumped, 'GET', path, query)).text).toBe(
          (await call(poisoned, 'GET', path, query)).text,
        );
      const keys = (r: PoisonReport | undefined) => r?.records.map((x) => x.key.slice(0, 40));
      expect(keys(other.poison())).not.toEqual(keys(finalReport));
    } finally {
      await Promise.all([jumped.close(), other.close()]);
    }
  });
});

describe('a poison world with some poisons switched off', () => {
  it('poisons the same records, only those of the kinds asked for', async () => {
    const some = await startSimulator({
      ...WORLD,
      scenario: 'poison',
      poison: { rateLimitRate: 0, kinds: ['nul', 'missing-detail'] },
    });
    try {
      some.advance(STEPS * STEP_MINUTES);
      const report = some.poison() as PoisonReport;
      expect(report.pending).toEqual([]);
      expect(report.records.map((r) => `${r.stream}:${r.kind}`).sort()).toEqual([
        'products:missing-detail',
        'shipments:nul',
        'transfers_in:missing-detail',
      ]);
      const all = new Set(fullReport().records.map((r) => r.key));
      for (const r of report.records) expect(all.has(r.key)).toBe(true);
      const A = report.accountNumber;
      for (const [path, query] of [
        ['Shipments/Returns', { accountNumber: A }],
        ['Finances/invoices', { accountNumber: A }],
        ['Inventories/Owned', { supplierId: report.supplierId, onHandOnly: 'false' }],
        [
          `Products/${fullReport().records.find((r) => r.stream === 'products' && r.kind === 'malformed-detail')?.key}`,
          {},
        ],
      ] as const)
        expect((await call(some, 'GET', path, query)).text).toBe(
          (await call(plain, 'GET', path, query)).text,
        );
    } finally {
      await some.close();
    }
  });
});

describe('rate limiting in the poison world', () => {
  const CHEAP = 'Orders/PackingSlips/Bulk';
  /** What each call looked like; `parallel` calls at a time (the order then no longer replays). */
  async function outcomes(s: RunningSimulator, n: number, parallel = 1): Promise<string[]> {
    const one = async () => {
      const res = await fetch(`${s.url}/api/v1/${CHEAP}`, {
        method: 'POST',
        headers: { authorization: 'Bearer sandbox-token', 'content-type': 'application/json' },
        body: JSON.stringify({ packingSlipIDs: [1001] }),
      });
      const body = await res.json();
      return res.status === 429 ? `429 ${res.headers.get('retry-after')} ${text(body)}` : String(res.status);
    };
    const out: string[] = [];
    while (out.length < n) out.push(...(await Promise.all(Array.from({ length: parallel }, one))));
    return out;
  }

  it('answers a share of calls (3% by default) 429 "Too many requests", Retry-After 1, replayed from the seed', async () => {
    const small = { ...WORLD, volume: { historyDays: 1, suppliers: 1 }, scenario: 'poison' as const };
    const [a, b, all] = await Promise.all([
      startSimulator(small),
      startSimulator(small),
      startSimulator({ ...small, poison: { rateLimitRate: 1, retryAfterSeconds: 3 } }),
    ]);
    try {
      const first = await outcomes(a, 300);
      expect(first.filter((o) => o.startsWith('429')).length).toBeGreaterThan(0);
      expect(await outcomes(b, 300)).toEqual(first);
      const all1000 = [...first, ...(await outcomes(a, 700, 10))];
      const throttled = all1000.filter((o) => o !== '200');
      expect(new Set(throttled)).toEqual(
        new Set(['429 1 {"isSuccess":false,"message":"Too many requests","payload":null}']),
      );
      expect(throttled.length).toBeGreaterThan(15);
      expect(throttled.length).toBeLessThan(45);
      expect(a.poison()?.rateLimit).toEqual({
        rate: 0.03,
        retryAfterSeconds: 1,
        message: 'Too many requests',
        answered: throttled.length,
      });
      expect(await outcomes(all, 3)).toEqual(
        Array(3).fill('429 3 {"isSuccess":false,"message":"Too many requests","payload":null}'),
      );
    } finally {
      await Promise.all([a.close(), b.close(), all.close()]);
    }
  });

  it('leaves the injected-fault sequence as it is without the scenario', async () => {
    const faults = { seed: 5, rates: { http5xx: 0.2 } };
    const [p, q] = await Promise.all([
      startSimulator({
        ...WORLD,
        volume: { historyDays: 1 },
        faults,
        scenario: 'poison',
        poison: { rateLimitRate: 0 },
      }),
      startSimulator({ ...WORLD, volume: { historyDays: 1 }, faults }),
    ]);
    try {
      const [po, qo] = await Promise.all([outcomes(p, 200), outcomes(q, 200)]);
      expect(po).toEqual(qo);
      expect(po.filter((o) => o.startsWith('50')).length).toBeGreaterThan(20);
    } finally {
      await Promise.all([p.close(), q.close()]);
    }
  });
});
