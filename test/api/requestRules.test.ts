import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FulfillmentClient, RequestRuleError } from '../../src/api/index.ts';
import { type RecordingServer, startRecordingServer } from './helpers/recordingServer.ts';
import { testClient } from './helpers/testClient.ts';

let server: RecordingServer;
let client: FulfillmentClient;

beforeAll(async () => {
  server = await startRecordingServer();
  client = testClient(server.url);
});
afterAll(() => server.close());
beforeEach(() => server.reset());

async function rejected(call: () => Promise<unknown>): Promise<RequestRuleError> {
  const error = await call().catch((e: unknown) => e);
  expect(error).toBeInstanceOf(RequestRuleError);
  expect(server.requests).toHaveLength(0);
  return error as RequestRuleError;
}

const wine = {
  supplierId: 'S1',
  sku: 'CAB',
  brandName: 'Brand',
  appellation: 'Napa',
  alcoholType: 'STILL',
  bottleSize: '750',
};

describe('request rules are enforced before the network', () => {
  it('wine product: lengths and US only', async () => {
    const error = await rejected(() =>
      client.createWineProduct({ ...wine, sku: 'C', brandName: 'x'.repeat(101), countryOfOrigin: 'FR' }),
    );
    expect(error.problems.join('\n')).toMatch(/sku/);
    expect(error.problems.join('\n')).toMatch(/brandName/);
    expect(error.problems.join('\n')).toMatch(/only US/);
    expect(error.message).toContain('POST Products/Skus/Wine');
  });

  it('IN create: PROVIDER_PICKUP needs a pickupSiteId, CLIENT_DROPOFF forbids it', async () => {
    const base = { supplierId: 'S1', referenceNumber: 'R1' };
    const pickup = await rejected(() =>
      client.createTransferIn({ ...base, deliveryMethodCode: 'PROVIDER_PICKUP' }),
    );
    expect(pickup.problems).toEqual(['pickupSiteId: PROVIDER_PICKUP needs a pickupSiteId']);
    const dropoff = await rejected(() =>
      client.createTransferIn({ ...base, deliveryMethodCode: 'CLIENT_DROPOFF', pickupSiteId: 3 }),
    );
    expect(dropoff.problems).toEqual(['pickupSiteId: CLIENT_DROPOFF requires pickupSiteId to be empty']);
    await rejected(() =>
      client.createTransferIn({ ...base, supplierId: 'S', deliveryMethodCode: 'CLIENT_DROPOFF' }),
    );
  });

  it('supplierId needs 2 characters on every supplier listing', async () => {
    await rejected(() => client.listTransfersIn({ supplierId: 'S' }));
    await rejected(() => client.searchTransfersOut({ supplierId: '' }));
    await rejected(() => client.listOwnedInventory({ supplierId: 'S' }));
    await rejected(() => client.listInventoryActivity({ supplierId: 'S' }));
    await rejected(() => client.listOwnedProducts({ supplierId: 'S' }));
  });

  it('account number needs 2 characters on returns and shipment updates', async () => {
    await rejected(() => client.listReturns({ accountNumber: 'A' }));
    await rejected(() =>
      client.listShipmentUpdates({ accountNumber: 'A', beginDate: '2026-03-01', endDate: '2026-03-02' }),
    );
  });

  it('owned inventory: warehouse and SKU not together', async () => {
    const error = await rejected(() =>
      client.listOwnedInventory({ supplierId: 'S1', warehouseCode: 'PSO', sku: 'X1' }),
    );
    expect(error.problems[0]).toMatch(/warehouseCode and sku cannot be used together/);
  });

  it('packing slip IDs must be integers', async () => {
    await rejected(() => client.getPackingSlips([1, 2.5]));
    await rejected(() => client.getPackingSlips(['7' as unknown as number]));
  });

  it('hold-at locations: bounds and US only', async () => {
    const error = await rejected(() =>
      client.listHoldAtLocations({
        stateCode: 'CAL',
        postalCode: '123',
        countryCode: 'CA',
        city: 'x'.repeat(101),
      }),
    );
    expect(error.problems).toHaveLength(4);
  });

  it('dates must be wire strings of the right format', async () => {
    await rejected(() => client.listTransfersIn({ supplierId: 'S1', beginDate: '2026-3-1' }));
    await rejected(() => client.listReturns({ accountNumber: 'AC', beginDate: '2026-02-30' }));
    await rejected(() => client.listInvoices({ beginDate: '2026-03-01T10:00' }));
    await rejected(() => client.listInvoices({ beginDate: '2026-03-02', endDate: '2026-03-01' }));
    await rejected(() =>
      client.listShipmentUpdates({
        accountNumber: 'AC',
        beginDate: '2026-03-01T24:00',
        endDate: '2026-03-02T00:00',
      }),
    );
  });

  it('path parameters must not be empty', async () => {
    await rejected(() => client.getOrderDetail('AC', ''));
    await rejected(() => client.getProductDetail('', 'X'));
    await rejected(() => client.cancelOrder('AC', ' '));
  });

  it('a valid request does reach the server', async () => {
    await client.listShipmentUpdates({
      accountNumber: 'AC',
      beginDate: '2026-03-01',
      endDate: '2026-03-01T10:00',
    });
    expect(server.requests).toHaveLength(1);
  });
});
