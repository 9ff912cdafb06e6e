import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/fulfillmentClient.ts';
import {
  ok,
  type RecordedRequest,
  type RecordingServer,
  startRecordingServer,
} from './helpers/recordingServer.ts';
import { TEST_TOKEN, testClient } from './helpers/testClient.ts';

let server: RecordingServer;
let client: FulfillmentClient;

beforeAll(async () => {
  server = await startRecordingServer();
  client = testClient(server.url);
});
afterAll(() => server.close());
beforeEach(() => server.reset());

function only(): RecordedRequest {
  expect(server.requests).toHaveLength(1);
  const [request] = server.requests;
  expect(request?.headers.authorization).toBe(`Bearer ${TEST_TOKEN}`);
  expect(request?.headers.accept).toBe('application/json');
  return request!;
}

function expectJsonBody(request: RecordedRequest, body: unknown) {
  expect(request.headers['content-type']).toBe('application/json');
  expect(request.json).toEqual(body);
}

function expectNoBody(request: RecordedRequest) {
  expect(request.body).toBe('');
  expect(request.headers['content-type']).toBeUndefined();
}

const orderHeader = {
  creationDate: '2026-03-01T10:00:00',
  isOnsitePurchase: false,
  isLineHaul: false,
  isEditable: true,
  isCancellable: true,
  isBackOrdered: false,
  hasInventoryHold: false,
};

describe('one call per operation: method, path, query names, headers, body', () => {
  it('createWineProduct POSTs the wine product as JSON', async () => {
    server.reply(ok('created'));
    const body = {
      supplierId: 'S1',
      sku: 'CAB-21',
      brandName: 'Brand',
      appellation: 'Napa',
      alcoholType: 'STILL',
      bottleSize: '750',
      countryOfOrigin: 'US',
    };
    const result = await client.createWineProduct(body);
    const request = only();
    expect([request.method, request.path]).toEqual(['POST', '/api/v1/Products/Skus/Wine']);
    expectJsonBody(request, body);
    expect(result.messages).toEqual(['created']);
  });

  it('getProductDetail GETs the encoded path', async () => {
    server.reply(ok({ isOwner: true, itemTypeCode: 'WINE', header: { sku: 'A/B 1' } }));
    const result = await client.getProductDetail('S1', 'A/B 1');
    const request = only();
    expect([request.method, request.path]).toEqual(['GET', '/api/v1/Products/S1/A%2FB%201']);
    expectNoBody(request);
    expect(result.record?.header.sku).toBe('A/B 1');
  });

  it('listOwnedProducts sends supplierId, itemTypeCode, sku', async () => {
    server.reply(ok([{ sku: 'X1' }]));
    const result = await client.listOwnedProducts({ supplierId: 'S1', itemTypeCode: 'WINE', sku: 'X1' });
    const request = only();
    expect([request.method, request.path]).toEqual(['GET', '/api/v1/Products/Owned/Listing']);
    expect(request.query).toEqual({ supplierId: 'S1', itemTypeCode: 'WINE', sku: 'X1' });
    expect(result.records).toHaveLength(1);
  });

  it('createTransferIn POSTs the IN and returns its strings', async () => {
    server.reply(ok(['IN-100']));
    const body = {
      supplierId: 'S1',
      referenceNumber: 'R1',
      deliveryMethodCode: 'PROVIDER_PICKUP',
      pickupSiteId: 7,
      warehouseCode: 'PSO',
      expectedDate: '2026-04-01T00:00:00',
      lineItems: [{ supplierSku: 'X1', subInventoryCode: 'MAIN', qty: 12 }],
    };
    const result = await client.createTransferIn(body);
    const request = only();
    expect([request.method, request.path]).toEqual(['POST', '/api/v1/Transfers/INs']);
    expectJsonBody(request, body);
    expect(result.messages).toEqual(['IN-100']);
  });

  it('listTransfersIn sends all seven parameters', async () => {
    server.reply(ok([{ orderNumber: 'IN-1' }]));
    await client.listTransfersIn({
      supplierId: 'S1',
      warehouseCode: 'PSO',
      sku: 'X1',
      statusCode: 'SUBMITTED',
      deliveryMethodCode: 'CLIENT_DROPOFF',
      beginDate: '2026-03-01',
      endDate: '2026-03-31',
    });
    const request = only();
    expect([request.method, request.path]).toEqual(['GET', '/api/v1/Transfers/INs']);
    expect(request.queryNames).toEqual([
      'supplierId',
      'warehouseCode',
      'sku',
      'statusCode',
      'deliveryMethodCode',
      'beginDate',
      'endDate',
    ]);
    expect(request.query.beginDate).toBe('2026-03-01');
  });

  it('getTransferInDetail GETs supplierId/orderNumber', async () => {
    server.reply(ok({ header: { orderNumber: 'IN-1' }, lineItems: [], notes: null }));
    const result = await client.getTransferInDetail('S1', 'IN-1');
    const request = only();
    expect([request.method, request.path]).toEqual(['GET', '/api/v1/Transfers/INs/S1/IN-1']);
    expect(result.record?.header.orderNumber).toBe('IN-1');
  });

  it('cancelTransferIn DELETEs with supplierId and orderNumber in the query', async () => {
    server.reply(ok(['cancelled']));
    const result = await client.cancelTransferIn({ supplierId: 'S1', orderNumber: 'IN-1' });
    const request = only();
    expect([request.method, request.path]).toEqual(['DELETE', '/api/v1/Transfers/INs']);
    expect(request.query).toEqual({ supplierId: 'S1', orderNumber: 'IN-1' });
    expectNoBody(request);
    expect(result.messages).toEqual(['cancelled']);
  });

  it('searchTransfersOut POSTs without a body, parameters in the query', async () => {
    server.reply(ok([{ orderNumber: 'OUT-1' }]));
    await client.searchTransfersOut({
      supplierId: 'S1',
      warehouseCode: 'GLW',
      beginDate: '2026-03-01',
      endDate: '2026-03-02',
    });
    const request = only();
    expect([request.method, request.path]).toEqual(['POST', '/api/v1/Transfers/OUTs/Search']);
    expect(request.query).toEqual({
      supplierId: 'S1',
      warehouseCode: 'GLW',
      beginDate: '2026-03-01',
      endDate: '2026-03-02',
    });
    expectNoBody(request);
  });

  it('listOwnedInventory sends booleans as true/false', async () => {
    server.reply(ok([{ sku: 'X1', qtyOnHand: 3 }]));
    await client.listOwnedInventory({
      supplierId: 'S1',
      warehouseCode: 'PSO',
      subInventoryCode: 'MAIN',
      onHandOnly: false,
    });
    const request = only();
    expect([request.method, request.path]).toEqual(['GET', '/api/v1/Inventories/Owned']);
    expect(request.query).toEqual({
      supplierId: 'S1',
      warehouseCode: 'PSO',
      subInventoryCode: 'MAIN',
      onHandOnly: 'false',
    });
  });

  it('listInventoryActivity sends all seven parameters', async () => {
    server.reply(ok([{ sku: 'X1' }]));
    await client.listInventoryActivity({
      supplierId: 'S1',
      warehouseCode: 'PSO',
      subInventoryCode: 'MAIN',
      beginDate: '2026-03-01',
      endDate: '2026-03-01',
      sku: 'X1',
      activeOnly: true,
    });
    const request = only();
    expect([request.method, request.path]).toEqual(['GET', '/api/v1/Inventories/Activity']);
    expect(request.queryNames).toEqual([
      'supplierId',
      'warehouseCode',
      'subInventoryCode',
      'beginDate',
      'endDate',
      'sku',
      'activeOnly',
    ]);
    expect(request.query.activeOnly).toBe('true');
  });

  it('getOrderDetail GETs Orders/Detail/account/order', async () => {
    server.reply(ok({ header: orderHeader, lineItems: null }));
    const result = await client.getOrderDetail('ACC1', 'ORD 9');
    const request = only();
    expect([request.method, request.path]).toEqual(['GET', '/api/v1/Orders/Detail/ACC1/ORD%209']);
    expect(result.record?.header.isCancellable).toBe(true);
  });

  it('cancelOrder DELETEs the order with the rename flag', async () => {
    server.reply(ok(['deleted']));
    await client.cancelOrder('ACC1', 'ORD9', { renameOrder: true });
    const request = only();
    expect([request.method, request.path]).toEqual(['DELETE', '/api/v1/Orders/ACC1/ORD9']);
    expect(request.query).toEqual({ renameOrder: 'true' });
  });

  it('getPackingSlips POSTs {packingSlipIDs}', async () => {
    server.reply(ok([{ packingSlipId: 4 }, { packingSlipId: 5 }]));
    const result = await client.getPackingSlips([4, 5]);
    const request = only();
    expect([request.method, request.path]).toEqual(['POST', '/api/v1/Orders/PackingSlips/Bulk']);
    expectJsonBody(request, { packingSlipIDs: [4, 5] });
    expect(result.records.map((r) => r.packingSlipId)).toEqual([4, 5]);
  });

  it('listShipmentUpdates sends minute bounds', async () => {
    server.reply(ok([{ header: { containerId: 'C1' }, events: [] }]));
    await client.listShipmentUpdates({
      accountNumber: 'ACC1',
      beginDate: '2026-11-01T01:00',
      endDate: '2026-11-01T02:30',
      containerId: 'C1',
    });
    const request = only();
    expect([request.method, request.path]).toEqual(['GET', '/api/v1/Shipments/Updates']);
    expect(request.query).toEqual({
      accountNumber: 'ACC1',
      beginDate: '2026-11-01T01:00',
      endDate: '2026-11-01T02:30',
      containerId: 'C1',
    });
  });

  it('listReturns sends all eight parameters', async () => {
    server.reply(ok([{ shipReturnId: 1 }]));
    await client.listReturns({
      accountNumber: 'ACC1',
      warehouseCode: 'PSO',
      beginDate: '2026-03-01',
      endDate: '2026-03-02',
      returnReasonCode: 'DMG',
      statusCode: 'NEW',
      orderNumber: 'O1',
      trackingNumber: 'T1',
    });
    const request = only();
    expect([request.method, request.path]).toEqual(['GET', '/api/v1/Shipments/Returns']);
    expect(request.queryNames).toEqual([
      'accountNumber',
      'warehouseCode',
      'beginDate',
      'endDate',
      'returnReasonCode',
      'statusCode',
      'orderNumber',
      'trackingNumber',
    ]);
  });

  it('listHoldAtLocations sends the address', async () => {
    server.reply(ok([{ carrier: 'CarrierA', distanceMiles: 1.5 }]));
    await client.listHoldAtLocations({
      carrier: 'CarrierB',
      address1: '1 Main St',
      city: 'Napa',
      stateCode: 'CA',
      postalCode: '94558',
      countryCode: 'US',
    });
    const request = only();
    expect([request.method, request.path]).toEqual(['GET', '/api/v1/Shipments/Carriers/HoldAtLocations']);
    expect(request.query).toEqual({
      carrier: 'CarrierB',
      address1: '1 Main St',
      city: 'Napa',
      stateCode: 'CA',
      postalCode: '94558',
      countryCode: 'US',
    });
  });

  it('listInvoices sends the five parameters', async () => {
    server.reply(ok([{ invoiceNumber: 'INV1', balanceDue: 10.5 }]));
    const result = await client.listInvoices({
      accountNumber: 'ACC1',
      invoiceType: 'DIRECT',
      invoiceNumber: 'INV1',
      beginDate: '2026-03-01',
      endDate: '2026-03-31',
    });
    const request = only();
    expect([request.method, request.path]).toEqual(['GET', '/api/v1/Finances/invoices']);
    expect(request.queryNames).toEqual([
      'accountNumber',
      'invoiceType',
      'invoiceNumber',
      'beginDate',
      'endDate',
    ]);
    expect(result.records[0]?.balanceDue).toBe(10.5);
  });
});

describe('query-parameter overrides (FULFILLMENT_QUERY_PARAMS)', () => {
  it('renames the overridden names and keeps the rest', async () => {
    const renamed = testClient(server.url, {
      queryParams: {
        'GET Transfers/INs': { beginDate: 'submittedFrom', endDate: 'submittedTo' },
        'DELETE Orders/{accountNumber}/{orderNumber}': { renameOrder: 'isRename' },
      },
    });
    await renamed.listTransfersIn({ supplierId: 'S1', beginDate: '2026-03-01', endDate: '2026-03-02' });
    await renamed.cancelOrder('ACC1', 'O1', { renameOrder: false });
    expect(server.requests.map((r) => r.query)).toEqual([
      { supplierId: 'S1', submittedFrom: '2026-03-01', submittedTo: '2026-03-02' },
      { isRename: 'false' },
    ]);
  });

  it('refuses an unknown operation or meaning at construction', () => {
    expect(() => testClient(server.url, { queryParams: { 'GET Nope': { a: 'b' } } })).toThrow(
      /^the queryParams option is invalid: unknown operation "GET Nope"/,
    );
    expect(() => testClient(server.url, { queryParams: { 'GET Transfers/INs': { since: 'x' } } })).toThrow(
      /"GET Transfers\/INs" has no parameter "since"/,
    );
  });
});
