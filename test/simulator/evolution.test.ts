import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  inventoryActivitySchema,
  invoiceSchema,
  orderDetailSchema,
  ownedInventorySchema,
  ownedProductSchema,
  productDetailSchema,
  type ShipmentUpdate,
  shipmentReturnSchema,
  shipmentUpdateSchema,
  transferInDetailSchema,
  transferOutSchema,
} from '../../src/api/records/index.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import { Zone } from '../../src/simulator/zone.ts';
import { call, sim } from './helpers.ts';

let s: RunningSimulator;
beforeAll(async () => {
  s = await sim({ volume: { historyDays: 10 } });
});
afterAll(() => s.close());

const byKey = <T>(rows: T[], key: (r: T) => string) => Object.fromEntries(rows.map((r) => [key(r), r]));
const FULL = { beginDate: '2026-10-01', endDate: '2026-12-31' };

describe('advancing the clock', () => {
  it('moves records through their transitions', async () => {
    const before = s.truth();
    const openIns = Object.values(before.transfersIn)
      .flat()
      .filter((t) => t.header.statusCode === 'PROCESSING' || t.header.statusCode === 'SUBMITTED');
    expect(openIns.length).toBeGreaterThan(0);
    s.advance(4 * 1440);
    const after = s.truth();
    const changes = after.history.slice(before.history.length);
    const to = (kind: string) =>
      new Set(changes.filter((h) => h.kind === kind).map((h) => String(h.change.to)));
    expect([...to('shipment.status_changed')]).toEqual(
      expect.arrayContaining(['IN_TRANSIT', 'DELIVERED', 'EXCEPTION']),
    );
    expect([...to('return.status_changed')]).toEqual(expect.arrayContaining(['IN_PROCESS', 'RESOLVED']));
    expect([...to('transfer_in.status_changed')]).toEqual(
      expect.arrayContaining(['SUBMITTED', 'PROCESSING', 'CLOSED']),
    );
    expect(changes.some((h) => h.kind === 'transfer_in.received')).toBe(true);
    expect(changes.some((h) => h.kind === 'order.created')).toBe(true);
    expect(changes.some((h) => h.kind === 'invoice.created')).toBe(true);
    expect([...to('transfer_out.status_changed')].length).toBeGreaterThan(0);
    // An IN that was open before is further along (or closed) now, qtyReceived never falling.
    const afterIns = byKey(Object.values(after.transfersIn).flat(), (t) => t.header.orderNumber);
    const moved = openIns.filter(
      (t) => afterIns[t.header.orderNumber]?.header.statusCode !== t.header.statusCode,
    );
    expect(moved.length).toBeGreaterThan(0);
    for (const t of openIns) {
      const now = afterIns[t.header.orderNumber]!;
      for (const [i, l] of (t.lineItems ?? []).entries()) {
        expect(now.lineItems?.[i]?.qtyReceived ?? 0).toBeGreaterThanOrEqual(l.qtyReceived ?? 0);
      }
    }
    // Invoices get paid: some balance reached 0 after having been positive.
    const paid = Object.values(after.invoices)
      .flat()
      .filter((i) => i.balanceDue === 0);
    expect(paid.length).toBeGreaterThan(0);
    expect(
      Object.values(after.invoices)
        .flat()
        .some((i) => (i.balanceDue ?? 0) > 0),
    ).toBe(true);
    // Stock is never negative; emptied sub-inventories have dropped out of the owned list.
    for (const row of Object.values(after.ownedInventory).flat())
      expect(row.qtyOnHand).toBeGreaterThanOrEqual(0);
    expect([...s.world.inventory.values()].some((r) => r.dropped)).toBe(true);
  });

  it('shows late scans in the window of the time they became visible', async () => {
    const truth = s.truth();
    const lateLast = truth.history.filter(
      (h) =>
        h.kind === 'shipment.tracking_event' &&
        h.change.late === true &&
        truth.shipmentUpdatedAt[h.key] === h.at,
    );
    expect(lateLast.length).toBeGreaterThan(0);
    const zone = new Zone('America/Los_Angeles');
    for (const h of lateLast.slice(0, 5)) {
      const at = Date.parse(h.at);
      const eventTime = Date.parse(String(h.change.eventTime));
      expect(eventTime).toBeLessThan(at - 30 * 60_000);
      const account = Object.keys(truth.shipmentUpdates).find((a) =>
        truth.shipmentUpdates[a]!.some((u) => u.header.containerId === h.key),
      )!;
      const inUpdateWindow = await call<ShipmentUpdate[]>(s, 'GET', 'Shipments/Updates', {
        accountNumber: account,
        beginDate: zone.wallMinute(at),
        endDate: zone.wallMinute(at),
      });
      const found = inUpdateWindow.body.payload.find((u) => u.header.containerId === h.key);
      expect(found?.events?.some((e) => Date.parse(e.eventTime!) === eventTime)).toBe(true);
      const inEventWindow = await call<ShipmentUpdate[]>(s, 'GET', 'Shipments/Updates', {
        accountNumber: account,
        beginDate: zone.wallMinute(eventTime),
        endDate: zone.wallMinute(eventTime),
      });
      expect(inEventWindow.body.payload.some((u) => u.header.containerId === h.key)).toBe(false);
    }
  });

  it('exports only records that validate against the spec schemas', () => {
    const truth = s.truth();
    const groups: Array<[z.ZodType, Record<string, unknown[]>]> = [
      [shipmentUpdateSchema, truth.shipmentUpdates],
      [shipmentReturnSchema, truth.returns],
      [ownedInventorySchema, truth.ownedInventory],
      [inventoryActivitySchema, truth.inventoryActivity],
      [transferInDetailSchema, truth.transfersIn],
      [transferOutSchema, truth.transfersOut],
      [invoiceSchema, truth.invoices],
      [ownedProductSchema, truth.ownedProducts],
      [productDetailSchema, truth.productDetails],
      [orderDetailSchema, truth.orderDetails],
    ];
    for (const [schema, group] of groups) {
      const rows = Object.values(group).flat();
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(schema.safeParse(row).error).toBeUndefined();
    }
  });

  it('the exported truth agrees with what the list operations return', async () => {
    const truth = s.truth();
    for (const account of truth.accounts) {
      const updates = await call<ShipmentUpdate[]>(s, 'GET', 'Shipments/Updates', {
        accountNumber: account,
        ...FULL,
      });
      expect(byKey(updates.body.payload, (u) => u.header.containerId)).toEqual(
        byKey(truth.shipmentUpdates[account]!, (u) => u.header.containerId),
      );
      const returns = await call<Array<{ shipReturnId: number }>>(s, 'GET', 'Shipments/Returns', {
        accountNumber: account,
        ...FULL,
      });
      expect(returns.body.payload).toEqual(truth.returns[account]);
      const invoices = await call(s, 'GET', 'Finances/invoices', { accountNumber: account, ...FULL });
      expect(invoices.body.payload).toEqual(truth.invoices[account]);
      for (const order of truth.orderDetails[account]!.slice(0, 5)) {
        const detail = await call(s, 'GET', `Orders/Detail/${account}/${order.header.orderNumber}`);
        expect(detail.body.payload).toEqual(order);
      }
    }
    for (const supplier of truth.suppliers) {
      const owned = await call(s, 'GET', 'Inventories/Owned', { supplierId: supplier, onHandOnly: 'false' });
      expect(owned.body.payload).toEqual(truth.ownedInventory[supplier]);
      const ins = await call<Array<{ orderNumber: string }>>(s, 'GET', 'Transfers/INs', {
        supplierId: supplier,
      });
      expect(ins.body.payload.map((r) => r.orderNumber).sort()).toEqual(
        truth.transfersIn[supplier]!.map((t) => t.header.orderNumber).sort(),
      );
      const outs = await call(s, 'POST', 'Transfers/OUTs/Search', { supplierId: supplier, ...FULL });
      expect(outs.body.payload).toEqual(truth.transfersOut[supplier]);
      const products = await call(s, 'GET', 'Products/Owned/Listing', { supplierId: supplier });
      expect(products.body.payload).toEqual(truth.ownedProducts[supplier]);
      const activity = await call<unknown[]>(s, 'GET', 'Inventories/Activity', {
        supplierId: supplier,
        beginDate: '2026-10-20',
        endDate: '2026-11-10',
      });
      const expected = truth.inventoryActivity[supplier]!.map(({ activityDate: _day, ...row }) => row);
      expect(activity.body.payload).toHaveLength(expected.length);
      expect(new Set(activity.body.payload.map((r) => JSON.stringify(r)))).toEqual(
        new Set(expected.map((r) => JSON.stringify(r))),
      );
    }
  });
});

describe('windows', () => {
  it('include both occurrences of the repeated November hour', async () => {
    // Two shipments last updated at 01:30 PDT and 01:30 PST on 2026-11-01 (08:30Z and 09:30Z).
    const [a, b] = [...s.world.shipments.values()].filter((x) => x.accountNumber === 'ACC100');
    a!.updatedAt = Date.parse('2026-11-01T08:30:10Z');
    b!.updatedAt = Date.parse('2026-11-01T09:30:20Z');
    const r = await call<ShipmentUpdate[]>(s, 'GET', 'Shipments/Updates', {
      accountNumber: 'ACC100',
      beginDate: '2026-11-01T01:00',
      endDate: '2026-11-01T01:59',
    });
    const ids = r.body.payload.map((u) => u.header.containerId);
    expect(ids).toEqual(expect.arrayContaining([a!.containerId, b!.containerId]));
    const zone = new Zone('America/Los_Angeles');
    const expected = [...s.world.shipments.values()].filter(
      (x) =>
        x.accountNumber === 'ACC100' &&
        zone.wallMinute(x.updatedAt) >= '2026-11-01T01:00' &&
        zone.wallMinute(x.updatedAt) <= '2026-11-01T01:59',
    );
    expect(ids.sort()).toEqual(expected.map((x) => x.containerId).sort());
    // Bounds are inclusive at minute granularity.
    const edge = await call<ShipmentUpdate[]>(s, 'GET', 'Shipments/Updates', {
      accountNumber: 'ACC100',
      beginDate: '2026-11-01T01:30',
      endDate: '2026-11-01T01:30',
    });
    expect(edge.body.payload.map((u) => u.header.containerId)).toEqual(
      expect.arrayContaining([a!.containerId, b!.containerId]),
    );
  });

  it('maps a repeated wall-clock minute to two instants an hour apart', () => {
    const zone = new Zone('America/Los_Angeles');
    const [first, last] = zone.instantsOf('2026-11-01T01:30');
    expect(new Date(first).toISOString()).toBe('2026-11-01T08:30:00.000Z');
    expect(new Date(last).toISOString()).toBe('2026-11-01T09:30:00.000Z');
    expect(zone.iso(last)).toBe('2026-11-01T01:30:00-08:00');
  });
});
