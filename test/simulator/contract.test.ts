import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientCredentialsTokenProvider,
  createFulfillmentClient,
  type FulfillmentClient,
} from '../../src/api/index.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import { sim } from './helpers.ts';

let s: RunningSimulator;
let client: FulfillmentClient;
beforeAll(async () => {
  s = await sim({ volume: { historyDays: 7 } });
  client = createFulfillmentClient({
    baseUrl: s.url,
    tokenProvider: clientCredentialsTokenProvider({
      tokenUrl: s.tokenUrl,
      clientId: 'sandbox-client',
      clientSecret: 'sandbox-secret',
    }),
    timeoutMs: 2000,
    rateLimitRps: 0,
    retry: { retries: 6, minTimeoutMs: 1, maxTimeoutMs: 5 },
    sleep: async () => {},
  });
});
afterAll(() => s.close());

const RANGE = { beginDate: '2026-10-27', endDate: '2026-11-03' };

/** Every record of a list answer is valid, and there is at least one. */
function valid<T>(result: { records: T[]; rejected: unknown[] }): T[] {
  expect(result.rejected).toEqual([]);
  expect(result.records.length).toBeGreaterThan(0);
  return result.records;
}

describe('the foundation client against the simulator', () => {
  it('reads all list and detail operations', async () => {
    const updates = valid(
      await client.listShipmentUpdates({
        accountNumber: 'ACC100',
        beginDate: '2026-11-01T00:00',
        endDate: '2026-11-03T12:00',
      }),
    );
    valid(await client.listReturns({ accountNumber: 'ACC100', ...RANGE }));
    const ins = valid(await client.listTransfersIn({ supplierId: 'SUP100' }));
    valid(await client.searchTransfersOut({ supplierId: 'SUP100' }));
    valid(
      await client.listOwnedInventory({
        supplierId: 'SUP100',
        warehouseCode: valid(await client.listOwnedInventory({ supplierId: 'SUP100' }))[0]!.warehouseCode!,
      }),
    );
    valid(
      await client.listInventoryActivity({
        supplierId: 'SUP100',
        beginDate: '2026-11-01',
        endDate: '2026-11-02',
      }),
    );
    const products = valid(await client.listOwnedProducts({ supplierId: 'SUP100' }));
    valid(await client.listInvoices({ accountNumber: 'ACC100', ...RANGE }));
    valid(
      await client.listHoldAtLocations({
        carrier: 'CarrierB',
        city: 'Napa',
        stateCode: 'CA',
        postalCode: '94558',
        countryCode: 'US',
      }),
    );
    valid(await client.getPackingSlips([1001, 1002]));
    const product = await client.getProductDetail('SUP100', products[0]!.sku);
    expect(product.record?.header.sku).toBe(products[0]!.sku);
    const transfer = await client.getTransferInDetail('SUP100', ins[0]!.orderNumber);
    expect(transfer.record?.header.orderNumber).toBe(ins[0]!.orderNumber);
    const orderNumber = updates[0]!.header.orderNumber!;
    const order = await client.getOrderDetail('ACC100', orderNumber);
    expect(order.record?.packages?.some((p) => p.shipmentKey !== undefined)).toBe(true);
  });

  it('performs the writes: create wine, create and cancel an IN, cancel an order', async () => {
    const wine = await client.createWineProduct({
      supplierId: 'SUP200',
      sku: 'CT-1',
      brandName: 'Contract',
      appellation: 'Sonoma Coast',
      alcoholType: 'STILL',
      bottleSize: '750',
    });
    expect(wine.messages).toHaveLength(1);
    expect(valid(await client.listOwnedProducts({ supplierId: 'SUP200', sku: 'CT-1' }))).toHaveLength(1);
    const created = await client.createTransferIn({
      supplierId: 'SUP200',
      referenceNumber: 'CT',
      deliveryMethodCode: 'PROVIDER_PICKUP',
      pickupSiteId: 501,
      warehouseCode: 'DAL',
      lineItems: [{ supplierSku: 'CT-1', subInventoryCode: 'FG', qty: 12 }],
    });
    const orderNumber = created.messages[0]!;
    expect(
      valid(await client.listTransfersIn({ supplierId: 'SUP200', statusCode: 'DRAFT' })).some(
        (r) => r.orderNumber === orderNumber,
      ),
    ).toBe(true);
    await client.cancelTransferIn({ supplierId: 'SUP200', orderNumber });
    expect((await client.getTransferInDetail('SUP200', orderNumber)).record?.header.statusCode).toBe(
      'CANCELLED',
    );
    const open = s.truth().orderDetails.ACC200!.find((o) => o.header.isCancellable)!;
    const cancelled = await client.cancelOrder('ACC200', open.header.orderNumber!, { renameOrder: false });
    expect(cancelled.messages.length).toBeGreaterThan(0);
    expect(
      (await client.getOrderDetail('ACC200', open.header.orderNumber!)).record?.header.isCancellable,
    ).toBe(false);
  });

  it('rides through retryable faults and isolates broken records', async () => {
    s.setFaults({
      seed: 3,
      rates: { http5xx: 0.2, rateLimit: 0.1, isSuccessFalse: 0.1 },
      retryAfterSeconds: 0,
    });
    for (let i = 0; i < 10; i++) valid(await client.listOwnedProducts({ supplierId: 'SUP100' }));
    s.setFaults({ rates: { badRecords: 1 }, corruptions: ['missingField'] });
    const result = await client.listOwnedProducts({ supplierId: 'SUP100' });
    expect(result.rejected).toHaveLength(1);
    expect(result.records.length).toBeGreaterThan(0);
    s.setFaults({});
  });
});
