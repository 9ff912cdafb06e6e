import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  holdAtLocationSchema,
  inventoryActivitySchema,
  invoiceSchema,
  orderDetailSchema,
  ownedInventorySchema,
  ownedProductSchema,
  packingSlipSchema,
  productDetailSchema,
  shipmentReturnSchema,
  shipmentUpdateSchema,
  transferInDetailSchema,
  transferInListRowSchema,
  transferOutSchema,
} from '../../src/api/records/index.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import { call, sim } from './helpers.ts';

let s: RunningSimulator;
beforeAll(async () => {
  s = await sim();
});
afterAll(() => s.close());

function expectAll(schema: z.ZodType, rows: unknown) {
  expect(Array.isArray(rows)).toBe(true);
  const list = rows as unknown[];
  for (const row of list) {
    const parsed = schema.safeParse(row);
    if (!parsed.success) throw new Error(`${JSON.stringify(row).slice(0, 300)}: ${parsed.error.message}`);
  }
  return list;
}

const RANGE = { beginDate: '2026-10-20', endDate: '2026-11-03' };

describe('every operation answers per the spec', () => {
  it('lists validate against the record schemas and are not empty', async () => {
    const lists: Array<[z.ZodType, string, string, Record<string, string>]> = [
      [shipmentUpdateSchema, 'GET', 'Shipments/Updates', { accountNumber: 'ACC100', ...RANGE }],
      [shipmentReturnSchema, 'GET', 'Shipments/Returns', { accountNumber: 'ACC100', ...RANGE }],
      [transferInListRowSchema, 'GET', 'Transfers/INs', { supplierId: 'SUP100' }],
      [transferOutSchema, 'POST', 'Transfers/OUTs/Search', { supplierId: 'SUP100', ...RANGE }],
      [ownedInventorySchema, 'GET', 'Inventories/Owned', { supplierId: 'SUP100' }],
      [
        inventoryActivitySchema,
        'GET',
        'Inventories/Activity',
        { supplierId: 'SUP100', beginDate: '2026-11-01', endDate: '2026-11-02' },
      ],
      [ownedProductSchema, 'GET', 'Products/Owned/Listing', { supplierId: 'SUP100' }],
      [invoiceSchema, 'GET', 'Finances/invoices', { accountNumber: 'ACC100', ...RANGE }],
      [
        holdAtLocationSchema,
        'GET',
        'Shipments/Carriers/HoldAtLocations',
        { address1: '1 Main St', city: 'Napa', stateCode: 'CA', postalCode: '94558', countryCode: 'US' },
      ],
    ];
    for (const [schema, method, path, query] of lists) {
      const r = await call(s, method, path, query);
      expect(r.status, path).toBe(200);
      expect(r.body.isSuccess, path).toBe(true);
      expect(expectAll(schema, r.body.payload).length, path).toBeGreaterThan(0);
    }
  });

  it('detail operations answer the records named in the lists', async () => {
    const truth = s.truth();
    const order = truth.orderDetails.ACC100![0]!;
    const detail = await call(s, 'GET', `Orders/Detail/ACC100/${order.header.orderNumber}`);
    expect(orderDetailSchema.parse(detail.body.payload).header.orderNumber).toBe(order.header.orderNumber);

    const product = await call(s, 'GET', 'Products/SUP100/1GSET1');
    const p = productDetailSchema.parse(product.body.payload);
    expect(p.bomInventories?.length).toBeGreaterThan(0);
    const pto = productDetailSchema.parse((await call(s, 'GET', 'Products/SUP100/1PTO1')).body.payload);
    expect(pto.ptoInfos?.length).toBe(2);
    expect(p.sellingInfos?.length).toBeGreaterThan(0);

    const ins = await call<Array<{ orderNumber: string }>>(s, 'GET', 'Transfers/INs', {
      supplierId: 'SUP100',
    });
    const inDetail = await call(s, 'GET', `Transfers/INs/SUP100/${ins.body.payload[0]!.orderNumber}`);
    expect(transferInDetailSchema.parse(inDetail.body.payload).lineItems?.length).toBeGreaterThan(0);

    const slips = await call(
      s,
      'POST',
      'Orders/PackingSlips/Bulk',
      {},
      { packingSlipIDs: [1001, 1003, 999] },
    );
    expect(
      expectAll(packingSlipSchema, slips.body.payload).map(
        (x) => (x as { packingSlipId: number }).packingSlipId,
      ),
    ).toEqual([1001, 1003]);

    const missing = await call(s, 'GET', 'Orders/Detail/ACC100/NOPE');
    expect(missing.status).toBe(404);
    expect(missing.body.isSuccess).toBe(false);
  });

  it('a wine SKU created by POST appears in the listing and detail', async () => {
    const wine = {
      supplierId: 'SUP100',
      sku: 'NEW-CAB-1',
      brandName: 'Test',
      appellation: 'Napa Valley',
      alcoholType: 'STILL',
      bottleSize: '750',
      countryOfOrigin: 'US',
      varietal: 'Cabernet Sauvignon',
    };
    const created = await call<string>(s, 'POST', 'Products/Skus/Wine', {}, wine);
    expect(created.body.isSuccess).toBe(true);
    expect(typeof created.body.payload).toBe('string');
    const listing = await call<Array<{ sku: string; itemTypeCode: string }>>(
      s,
      'GET',
      'Products/Owned/Listing',
      { supplierId: 'SUP100', sku: 'NEW-CAB-1' },
    );
    expect(listing.body.payload).toEqual([
      expect.objectContaining({ sku: 'NEW-CAB-1', itemTypeCode: 'WINE' }),
    ]);
    const detail = await call(s, 'GET', 'Products/SUP100/NEW-CAB-1');
    expect(productDetailSchema.parse(detail.body.payload).header.brandName).toBe('Test');
    const again = await call(s, 'POST', 'Products/Skus/Wine', {}, wine);
    expect(again.body.isSuccess).toBe(false);
  });

  it('an IN created by POST is listed in DRAFT and can be cancelled', async () => {
    const req = {
      supplierId: 'SUP200',
      referenceNumber: 'T-1',
      deliveryMethodCode: 'CLIENT_DROPOFF',
      warehouseCode: 'PSO',
      expectedDate: '2026-11-10T10:00:00-08:00',
      lineItems: [{ supplierSku: '2W001', subInventoryCode: 'FG', qty: 24 }],
    };
    const created = await call<string[]>(s, 'POST', 'Transfers/INs', {}, req);
    expect(created.body.isSuccess).toBe(true);
    const orderNumber = created.body.payload[0]!;
    const drafts = await call<Array<{ orderNumber: string; statusCode: string }>>(s, 'GET', 'Transfers/INs', {
      supplierId: 'SUP200',
      statusCode: 'DRAFT',
    });
    expect(drafts.body.payload.find((r) => r.orderNumber === orderNumber)?.statusCode).toBe('DRAFT');
    const cancelled = await call(s, 'DELETE', 'Transfers/INs', { supplierId: 'SUP200', orderNumber });
    expect(cancelled.body.isSuccess).toBe(true);
    const detail = await call<{ header: { statusCode: string; isCancellable: boolean } }>(
      s,
      'GET',
      `Transfers/INs/SUP200/${orderNumber}`,
    );
    expect(detail.body.payload.header).toMatchObject({ statusCode: 'CANCELLED', isCancellable: false });
    expect(
      (await call(s, 'DELETE', 'Transfers/INs', { supplierId: 'SUP200', orderNumber })).body.isSuccess,
    ).toBe(false);
  });

  it('a cancellable order can be cancelled, a shipped one cannot', async () => {
    const orders = s.truth().orderDetails.ACC200!;
    const open = orders.find((o) => o.header.isCancellable);
    const shipped = orders.find((o) => o.header.shippedDate);
    expect(open).toBeDefined();
    const r = await call<string[]>(s, 'DELETE', `Orders/ACC200/${open!.header.orderNumber}`);
    expect(r.body.isSuccess).toBe(true);
    const after = await call<{ header: { isCancellable: boolean; collapsedStatus: string } }>(
      s,
      'GET',
      `Orders/Detail/ACC200/${open!.header.orderNumber}`,
    );
    expect(after.body.payload.header).toMatchObject({ isCancellable: false, collapsedStatus: 'CANCELLED' });
    const refused = await call(s, 'DELETE', `Orders/ACC200/${shipped!.header.orderNumber}`);
    expect(refused.body.isSuccess).toBe(false);
  });
});

describe('request rules and auth', () => {
  it('answers rule violations as failures in the envelope (HTTP 400)', async () => {
    const cases: Array<[string, string, Record<string, string>, unknown?]> = [
      ['GET', 'Inventories/Owned', { supplierId: 'SUP100', warehouseCode: 'PSO', sku: '1W001' }],
      ['GET', 'Inventories/Owned', { supplierId: 'S' }],
      ['GET', 'Shipments/Updates', { accountNumber: 'A' }],
      ['GET', 'Shipments/Updates', { accountNumber: 'ACC100', beginDate: '11/01/2026' }],
      ['GET', 'Shipments/Carriers/HoldAtLocations', { stateCode: 'CAL' }],
      ['GET', 'Shipments/Carriers/HoldAtLocations', { postalCode: '123' }],
      ['GET', 'Shipments/Carriers/HoldAtLocations', { countryCode: 'CA' }],
      [
        'POST',
        'Transfers/INs',
        {},
        {
          supplierId: 'SUP100',
          referenceNumber: 'x',
          deliveryMethodCode: 'CLIENT_DROPOFF',
          warehouseCode: 'PSO',
          pickupSiteId: 501,
        },
      ],
      [
        'POST',
        'Transfers/INs',
        {},
        {
          supplierId: 'SUP100',
          referenceNumber: 'x',
          deliveryMethodCode: 'PROVIDER_PICKUP',
          warehouseCode: 'PSO',
        },
      ],
      [
        'POST',
        'Products/Skus/Wine',
        {},
        {
          supplierId: 'SUP100',
          sku: 'X',
          brandName: 'b',
          appellation: 'a',
          alcoholType: 'STILL',
          bottleSize: '750',
        },
      ],
      [
        'POST',
        'Products/Skus/Wine',
        {},
        {
          supplierId: 'SUP100',
          sku: 'XY',
          brandName: 'b',
          appellation: 'a',
          alcoholType: 'STILL',
          bottleSize: '750',
          countryOfOrigin: 'FR',
        },
      ],
    ];
    for (const [method, path, query, body] of cases) {
      const r = await call(s, method, path, query, body);
      expect(r.status, `${path} ${JSON.stringify(query)}`).toBe(400);
      expect(r.body.isSuccess).toBe(false);
      expect(r.body.message).toBeTruthy();
    }
  });

  it('refuses missing or wrong tokens with 401 and issues tokens for client credentials', async () => {
    const url = `${s.url}/api/v1/Products/Owned/Listing?supplierId=SUP100`;
    expect((await fetch(url)).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    const bad = await fetch(`${s.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'sandbox-client',
        client_secret: 'wrong',
      }),
    });
    expect(bad.status).toBe(401);
    const res = await fetch(`${s.url}/oauth/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: 'sandbox-client',
        client_secret: 'sandbox-secret',
      }),
    });
    const token = (await res.json()) as { access_token: string; expires_in: number };
    expect(token.expires_in).toBeGreaterThan(0);
    expect((await fetch(url, { headers: { authorization: `Bearer ${token.access_token}` } })).status).toBe(
      200,
    );
  });

  it('serves the control endpoints', async () => {
    const world = (await (await fetch(`${s.url}/_sim/world`)).json()) as {
      suppliers: string[];
      accounts: string[];
      now: string;
    };
    expect(world.suppliers).toEqual(['SUP100', 'SUP200']);
    expect(world.accounts).toEqual(['ACC100', 'ACC200']);
    const before = Date.parse(world.now);
    const moved = (await (
      await fetch(`${s.url}/_sim/clock`, { method: 'POST', body: JSON.stringify({ advanceMinutes: 30 }) })
    ).json()) as { now: string };
    expect(Date.parse(moved.now) - before).toBe(30 * 60_000);
    const truth = (await (await fetch(`${s.url}/_sim/truth`)).json()) as {
      history: unknown[];
      shipmentUpdates: Record<string, unknown[]>;
    };
    expect(truth.history.length).toBeGreaterThan(0);
    expect(Object.keys(truth.shipmentUpdates)).toEqual(['ACC100', 'ACC200']);
  });
});
