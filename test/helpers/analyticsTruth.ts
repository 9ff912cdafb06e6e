import { formatInTimeZone } from 'date-fns-tz';
import type { OwnedInventory, ShipmentUpdate } from '../../src/api/records/index.ts';
import type { SimTruth } from '../../src/simulator/truth.ts';

/**
 * What the analyst's guide queries (docs/analytics.md) must answer, computed from the simulator's
 * truth alone (never from the warehouse): the other side of test/analytics/guide.test.ts. Each
 * function mirrors one query's rows, with numbers as numbers.
 */

export type AnswerRow = Record<string, string | number | boolean | Date | null>;

const ZONE = 'America/Los_Angeles';
const DAY_MS = 86_400_000;

/** What a test recorded at each sync: the instant and the owned inventory the truth held then. */
export interface SyncSnapshot {
  at: number;
  inventory: Record<string, OwnedInventory[]>;
}

export const ms = (iso: string | null | undefined): number | null => (iso ? Date.parse(iso) : null);
/**
 * Postgres' round(numeric): half away from zero on the decimal value. Floats carry a binary error
 * (3.65 is 3.6499999...): 15 significant digits first, as Postgres reads a double into numeric.
 */
export const round = (value: number, digits: number) =>
  Math.sign(value) * (Math.round(Number(Math.abs(value * 10 ** digits).toPrecision(15))) / 10 ** digits);
export const pacificDay = (at: number) => formatInTimeZone(at, ZONE, 'yyyy-MM-dd');
const avg = (values: readonly number[]) =>
  values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;

/** Days (yyyy-MM-dd) added to a calendar day. */
export function addDays(day: string, days: number): string {
  return new Date(Date.parse(`${day}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** Monday of the week of a calendar day. */
function weekStart(day: string): string {
  const weekday = (new Date(`${day}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

/** One shipment as analytics.shipment_facts describes it, from the truth. */
interface ShipmentFact {
  account: string;
  orderNumber: string | null;
  carrier: string;
  shipDay: string | null;
  shipAt: number | null;
  delivered: boolean;
  transitDays: number | null;
  deliveredAt: number | null;
  hadException: boolean;
  hasSla: boolean;
  /** Shipped after its order's SLA date (the warehouse's shipping promise). */
  shippedAfterSla: boolean;
  slaStatus: string | null;
  units: number;
  warehouse: string;
}

function orderHeaders(truth: SimTruth) {
  const headers = new Map<string, SimTruth['orderDetails'][string][number]['header']>();
  for (const [account, orders] of Object.entries(truth.orderDetails)) {
    for (const order of orders) headers.set(`${account}|${order.header.orderNumber}`, order.header);
  }
  return headers;
}

export function shipmentFacts(truth: SimTruth): ShipmentFact[] {
  const headers = orderHeaders(truth);
  const facts: ShipmentFact[] = [];
  for (const [account, shipments] of Object.entries(truth.shipmentUpdates)) {
    for (const s of shipments)
      facts.push(shipmentFact(account, s, headers.get(`${account}|${s.header.orderNumber}`)));
  }
  return facts;
}

function shipmentFact(
  account: string,
  s: ShipmentUpdate,
  order: SimTruth['orderDetails'][string][number]['header'] | undefined,
): ShipmentFact {
  const shipAt = ms(s.header.shipDate);
  const events = s.events ?? [];
  const lastScan = Math.max(...events.map((e) => ms(e.eventTime) ?? Number.NEGATIVE_INFINITY));
  const delivered = s.header.statusCode === 'DELIVERED';
  const deliveredAt = delivered && Number.isFinite(lastScan) ? lastScan : null;
  const sla = ms(order?.slaDate);
  return {
    account,
    orderNumber: s.header.orderNumber ?? null,
    carrier: s.header.carrierName ?? '',
    shipDay: shipAt === null ? null : pacificDay(shipAt),
    shipAt,
    delivered,
    deliveredAt,
    transitDays: deliveredAt !== null && shipAt !== null ? round((deliveredAt - shipAt) / DAY_MS, 2) : null,
    hadException:
      s.header.statusCode === 'EXCEPTION' ||
      s.header.statusCode === 'RETURNED' ||
      events.some((e) => /exception|refused/i.test(e.description ?? '')),
    hasSla: sla !== null,
    shippedAfterSla: shipAt !== null && sla !== null && shipAt > sla,
    slaStatus: order?.slaStatusCode ?? null,
    units: (s.lineItems ?? []).reduce((n, l) => n + (l.quantity ?? 0), 0),
    warehouse: order?.warehouseCode ?? '',
  };
}

export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = groups.get(k);
    if (list) list.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

const transits = (facts: readonly ShipmentFact[]) =>
  facts.flatMap((f) => (f.transitDays === null ? [] : [f.transitDays]));

const recentFacts = (truth: SimTruth, fromDay: string) =>
  shipmentFacts(truth).filter((f) => f.shipDay !== null && f.shipDay >= fromDay);

/** Question 1: shipments, deliveries, transit and exceptions per carrier since `fromDay`. */
export function slowByCarrier(truth: SimTruth, fromDay: string): AnswerRow[] {
  return [...groupBy(recentFacts(truth, fromDay), (f) => f.carrier)].map(([carrier, facts]) => {
    const mean = avg(transits(facts));
    const p90 = percentile(transits(facts), 0.9);
    return {
      carrier_name: carrier,
      shipments: facts.length,
      delivered: facts.filter((f) => f.delivered).length,
      avg_transit_days: mean === null ? null : round(mean, 2),
      p90_transit_days: p90 === null ? null : round(p90, 2),
      had_exception: facts.filter((f) => f.hadException).length,
    };
  });
}

/** Question 3: per warehouse since `fromDay`, shipments with an SLA date and those shipped after it. */
export function slaByWarehouse(truth: SimTruth, fromDay: string): AnswerRow[] {
  return [...groupBy(recentFacts(truth, fromDay), (f) => f.warehouse)].map(([warehouse, facts]) => ({
    warehouse_code: warehouse === '' ? null : warehouse,
    shipments: facts.length,
    with_sla: facts.filter((f) => f.hasSla).length,
    shipped_after_sla: facts.filter((f) => f.shippedAfterSla).length,
    sla_missed: facts.filter((f) => f.slaStatus === 'MISSED').length,
  }));
}

/** percentile_cont: linear interpolation between the closest ranks. */
function percentile(values: readonly number[], p: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = p * (sorted.length - 1);
  const low = Math.floor(rank);
  const high = Math.ceil(rank);
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (rank - low);
}

/** Question 2: per week (from `fromDay`) and carrier. */
export function carrierWeekly(truth: SimTruth, fromDay: string): AnswerRow[] {
  const facts = shipmentFacts(truth).filter((f) => f.shipDay !== null);
  return [...groupBy(facts, (f) => `${weekStart(f.shipDay!)}|${f.carrier}`)]
    .map(([key, group]) => {
      const [week, carrier] = key.split('|') as [string, string];
      const median = percentile(transits(group), 0.5);
      const p90 = percentile(transits(group), 0.9);
      return {
        week_start: week,
        carrier_name: carrier,
        shipments: group.length,
        delivered: group.filter((f) => f.delivered).length,
        median_transit_days: median === null ? null : round(median, 2),
        p90_transit_days: p90 === null ? null : round(p90, 2),
        exception_rate: round(group.filter((f) => f.hadException).length / group.length, 4),
      };
    })
    .filter((row) => (row.week_start as string) >= fromDay);
}

/** Question 3: per warehouse, the orders a shipment or return names, received since `since`. */
export function orderLifecycle(truth: SimTruth, since: number): AnswerRow[] {
  const facts = shipmentFacts(truth);
  const byOrder = groupBy(facts, (f) => `${f.account}|${f.orderNumber}`);
  const named = new Set(byOrder.keys());
  for (const [account, returns] of Object.entries(truth.returns)) {
    for (const r of returns) if (r.orderNumber) named.add(`${account}|${r.orderNumber}`);
  }
  const headers = orderHeaders(truth);
  const orders = [...named].flatMap((key) => {
    const header = headers.get(key);
    if (!header) return [];
    const received = ms(header.receivedDate) ?? ms(header.creationDate)!;
    const shipments = byOrder.get(key) ?? [];
    const shipTimes = shipments.flatMap((f) => (f.shipAt === null ? [] : [f.shipAt]));
    const shipped = shipTimes.length > 0 ? Math.min(...shipTimes) : ms(header.shippedDate);
    const allDelivered = shipments.length > 0 && shipments.every((f) => f.deliveredAt !== null);
    const delivered = allDelivered ? Math.max(...shipments.map((f) => f.deliveredAt!)) : null;
    return [
      {
        warehouse: header.warehouseCode ?? null,
        received,
        hoursToShip: shipped === null ? null : round((shipped - received) / 3_600_000, 2),
        daysToDeliver: delivered === null ? null : round((delivered - received) / DAY_MS, 2),
      },
    ];
  });
  const recent = orders.filter((o) => o.received >= since);
  return [...groupBy(recent, (o) => o.warehouse ?? '')].map(([warehouse, group]) => {
    const hours = avg(group.flatMap((o) => (o.hoursToShip === null ? [] : [o.hoursToShip])));
    const days = avg(group.flatMap((o) => (o.daysToDeliver === null ? [] : [o.daysToDeliver])));
    return {
      warehouse_code: warehouse === '' ? null : warehouse,
      orders: group.length,
      avg_hours_to_ship: hours === null ? null : round(hours, 1),
      avg_days_to_deliver: days === null ? null : round(days, 2),
    };
  });
}

interface ReturnedUnits {
  account: string;
  sku: string;
  reasonCode: string;
  reasonName: string | null;
  warehouse: string;
  returnId: number;
  units: number;
}

export function returnedUnits(truth: SimTruth): ReturnedUnits[] {
  return Object.entries(truth.returns).flatMap(([account, returns]) =>
    returns.flatMap((r) => {
      const base = {
        account,
        reasonCode: r.returnReasonCode ?? '',
        reasonName: r.returnReasonName ?? null,
        warehouse: r.shipFromWarehouseCode ?? '',
        returnId: r.shipReturnId,
      };
      const lines = r.lineItems ?? [];
      if (lines.length === 0) return [{ ...base, sku: '', units: 0 }];
      return lines.map((l) => ({ ...base, sku: l.sku ?? '', units: l.quantityReturned ?? 0 }));
    }),
  );
}

function shippedUnitsPerSku(truth: SimTruth): Map<string, number> {
  const units = new Map<string, number>();
  for (const [account, shipments] of Object.entries(truth.shipmentUpdates)) {
    for (const s of shipments) {
      for (const l of s.lineItems ?? []) {
        const key = `${account}|${l.sku ?? ''}`;
        units.set(key, (units.get(key) ?? 0) + (l.quantity ?? 0));
      }
    }
  }
  return units;
}

export const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

/** Question 4: units returned over units shipped per account and SKU (the whole list, unsorted). */
export function returnRateBySku(truth: SimTruth): AnswerRow[] {
  const shipped = shippedUnitsPerSku(truth);
  const returned = groupBy(returnedUnits(truth), (r) => `${r.account}|${r.sku}`);
  const keys = new Set([...shipped.keys(), ...returned.keys()]);
  return [...keys].map((key) => {
    const [account, sku] = key.split('|') as [string, string];
    const units = sum((returned.get(key) ?? []).map((r) => r.units));
    const out = shipped.get(key) ?? 0;
    return {
      account_number: account,
      sku,
      units_shipped: out,
      units_returned: units,
      return_rate: out === 0 ? null : round(units / out, 4),
    };
  });
}

/** Question 5: per account and reason. */
export function returnReasons(truth: SimTruth): AnswerRow[] {
  const all = returnedUnits(truth);
  const perAccount = groupBy(all, (r) => r.account);
  return [...groupBy(all, (r) => `${r.account}|${r.reasonCode}`)].map(([, group]) => {
    const account = group[0]!.account;
    const units = sum(group.map((r) => r.units));
    const total = sum((perAccount.get(account) ?? []).map((r) => r.units));
    return {
      account_number: account,
      return_reason_name: group[0]!.reasonName,
      returns: new Set(group.map((r) => r.returnId)).size,
      units_returned: units,
      share_of_returned_units: total === 0 ? null : round(units / total, 4),
    };
  });
}

/** Question 6: per account and warehouse (the order's for shipments, ship-from for returns). */
export function returnRateByWarehouse(truth: SimTruth): AnswerRow[] {
  const shipped = new Map<string, number>();
  for (const f of shipmentFacts(truth)) {
    const key = `${f.account}|${f.warehouse}`;
    shipped.set(key, (shipped.get(key) ?? 0) + f.units);
  }
  const returned = groupBy(returnedUnits(truth), (r) => `${r.account}|${r.warehouse}`);
  return [...new Set([...shipped.keys(), ...returned.keys()])].map((key) => {
    const [account, warehouse] = key.split('|') as [string, string];
    const out = shipped.get(key) ?? 0;
    const units = sum((returned.get(key) ?? []).map((r) => r.units));
    return {
      account_number: account,
      warehouse_code: warehouse,
      units_shipped: out,
      units_returned: units,
      return_rate: out === 0 ? null : round(units / out, 4),
    };
  });
}

/** An inventory key as the simulator writes it: supplier|warehouse|sub-inventory|sku. */
export const keyOf = (
  supplier: string,
  r: Pick<OwnedInventory, 'warehouseCode' | 'subInventoryCode' | 'sku'>,
) => `${supplier}|${r.warehouseCode}|${r.subInventoryCode}|${r.sku}`;

/** On-hand of every key at the end of every Pacific day, from the truth's stock movements. */
function onHandAtEndOfDay(truth: SimTruth): (key: string, day: string) => number {
  const moves = groupBy(
    truth.history.filter((h) => h.kind === 'inventory.changed'),
    (h) => h.key,
  );
  const current = new Map<string, number>();
  for (const [supplier, rows] of Object.entries(truth.ownedInventory)) {
    for (const r of rows) current.set(keyOf(supplier, r), r.qtyOnHand ?? 0);
  }
  return (key, day) => {
    const list = moves.get(key) ?? [];
    let level: number | undefined;
    for (const move of list) {
      if (pacificDay(Date.parse(move.at)) > day) break;
      level = move.change.qtyOnHand as number;
    }
    if (level !== undefined) return level;
    const first = list[0];
    if (first) return (first.change.qtyOnHand as number) - (first.change.delta as number);
    return current.get(key) ?? 0;
  };
}

/**
 * Question 7: on-hand of `sku` per day and warehouse (summed over sub-inventories) from the first
 * day of `historyDays` to `today`. Days before the worker first saw a row are the truth's end of
 * day (reconstructed); from then on, what the last sync before the day's end saw.
 */
export function dailyInventory(
  truth: SimTruth,
  syncs: readonly SyncSnapshot[],
  sku: string,
  firstDay: string,
  today: string,
): AnswerRow[] {
  const endOfDay = onHandAtEndOfDay(truth);
  const keys = new Set<string>();
  for (const [supplier, rows] of Object.entries(truth.inventoryActivity)) {
    for (const r of rows) if (r.sku === sku) keys.add(keyOf(supplier, r));
  }
  for (const snapshot of syncs) {
    for (const [supplier, rows] of Object.entries(snapshot.inventory)) {
      for (const r of rows) if (r.sku === sku) keys.add(keyOf(supplier, r));
    }
  }
  const seenAt = (key: string, snapshot: SyncSnapshot) =>
    Object.entries(snapshot.inventory).some(([supplier, rows]) =>
      rows.some((r) => keyOf(supplier, r) === key),
    );
  const rows = new Map<string, { on_hand: number; reconstructed: boolean }>();
  for (const key of keys) {
    const warehouse = key.split('|')[1]!;
    const firstSeen = syncs.find((s) => seenAt(key, s));
    for (let day = firstDay; day <= today; day = addDays(day, 1)) {
      const observed = firstSeen !== undefined && pacificDay(firstSeen.at) <= day;
      const qty = observed ? observedOnHand(syncs, key, day) : endOfDay(key, day);
      const cell = rows.get(`${day}|${warehouse}`) ?? { on_hand: 0, reconstructed: false };
      cell.on_hand += qty;
      cell.reconstructed ||= !observed;
      rows.set(`${day}|${warehouse}`, cell);
    }
  }
  return [...rows].map(([k, v]) => {
    const [day, warehouse] = k.split('|') as [string, string];
    return { day, warehouse_code: warehouse, ...v };
  });
}

/** What the last sync before the end of `day` saw of `key` (0 once it vanished). */
function observedOnHand(syncs: readonly SyncSnapshot[], key: string, day: string): number {
  const before = syncs.filter((s) => pacificDay(s.at) <= day);
  const last = before.at(-1)!;
  for (const [supplier, rows] of Object.entries(last.inventory)) {
    const row = rows.find((r) => keyOf(supplier, r) === key);
    if (row) return row.qtyOnHand ?? 0;
  }
  return 0;
}

/**
 * Question 8: stock-out spells per SKU and warehouse from the available-to-sell the syncs saw: a
 * spell starts where it is 0 or less after a sync saw it above 0, or at the first sync that saw the
 * row if it was out then, and ends at the next sync that sees it above 0. `now` closes ongoing
 * spells for the hours.
 */
export function stockOuts(
  syncs: readonly SyncSnapshot[],
  since: number,
  now: number,
  subInventory: string,
): AnswerRow[] {
  const series = new Map<string, Array<{ at: number; out: boolean }>>();
  for (const snapshot of syncs) {
    const listed = new Set<string>();
    for (const [supplier, rows] of Object.entries(snapshot.inventory)) {
      for (const r of rows) {
        const key = keyOf(supplier, r);
        listed.add(key);
        const list = series.get(key) ?? [];
        list.push({ at: snapshot.at, out: (r.qtyAvailableToSell ?? 1) <= 0 });
        series.set(key, list);
      }
    }
    // A row that vanished is zeroed: out of stock from that sync on.
    for (const [key, list] of series) if (!listed.has(key)) list.push({ at: snapshot.at, out: true });
  }
  const spells: Array<{ sku: string; warehouse: string; start: number; end: number | null; first: boolean }> =
    [];
  for (const [key, list] of series) {
    const [, warehouse, sub, sku] = key.split('|') as [string, string, string, string];
    if (sub !== subInventory) continue;
    for (let i = 0; i < list.length; i++) {
      if (!list[i]!.out || (i > 0 && list[i - 1]!.out)) continue;
      const end = list.slice(i + 1).find((p) => !p.out);
      spells.push({ sku, warehouse, start: list[i]!.at, end: end?.at ?? null, first: i === 0 });
    }
  }
  const recent = spells.filter((s) => s.start >= since);
  return [...groupBy(recent, (s) => `${s.sku}|${s.warehouse}`)].map(([, group]) => ({
    sku: group[0]!.sku,
    warehouse_code: group[0]!.warehouse,
    spells: group.length,
    hours_out: round(sum(group.map((s) => (s.end ?? now) - s.start)) / 3_600_000, 1),
    ongoing: group.filter((s) => s.end === null).length,
    out_when_first_seen: group.filter((s) => s.first).length,
  }));
}

/** Question 9: INs in DRAFT, SUBMITTED or PROCESSING, their age at `now` and units still to arrive. */
export function openTransfersIn(truth: SimTruth, now: number): AnswerRow[] {
  return Object.entries(truth.transfersIn).flatMap(([supplier, ins]) =>
    ins
      .filter((i) => ['DRAFT', 'SUBMITTED', 'PROCESSING'].includes(i.header.statusCode ?? ''))
      .map((i) => {
        const lines = i.lineItems ?? [];
        const from = ms(i.header.submittedDate) ?? ms(i.header.creationDate);
        const expected = ms(i.header.expectedDate);
        const ordered = sum(lines.map((l) => l.qtyOrdered ?? 0));
        const received = sum(lines.map((l) => l.qtyReceived ?? 0));
        return {
          supplier_id: supplier,
          order_number: i.header.orderNumber ?? '',
          warehouse_code: i.header.warehouseCode ?? null,
          status_code: i.header.statusCode ?? null,
          age_days: from === null ? null : Math.floor((now - from) / DAY_MS),
          is_overdue: expected === null ? null : expected < now,
          qty_outstanding: lines.length === 0 ? null : Math.max(ordered - received, 0),
        };
      }),
  );
}

/** Question 10: open invoices per account and aging bucket at `now`. */
export function invoiceAging(truth: SimTruth, now: number): AnswerRow[] {
  const open = Object.entries(truth.invoices).flatMap(([account, invoices]) =>
    invoices
      .filter((i) => (i.balanceDue ?? 0) > 0)
      .map((i) => {
        const age = Math.floor((now - ms(i.invoiceDate)!) / DAY_MS);
        const bucket = age <= 30 ? '0-30' : age <= 60 ? '31-60' : age <= 90 ? '61-90' : '90+';
        return { account, bucket, balance: i.balanceDue ?? 0 };
      }),
  );
  return [...groupBy(open, (i) => `${i.account}|${i.bucket}`)].map(([, group]) => ({
    account_number: group[0]!.account,
    aging_bucket: group[0]!.bucket,
    invoices: group.length,
    balance_due: round(sum(group.map((i) => i.balance)), 2),
  }));
}
