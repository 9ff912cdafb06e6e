import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import { ok, type RecordingServer, startRecordingServer } from './helpers/recordingServer.ts';
import { testClient } from './helpers/testClient.ts';

let server: RecordingServer;
let client: FulfillmentClient;

beforeAll(async () => {
  server = await startRecordingServer();
  client = testClient(server.url);
});
afterAll(() => server.close());
beforeEach(() => server.reset());

describe('records are validated one by one', () => {
  it('quarantines a record with a wrong type and returns its siblings', async () => {
    const bad = { sku: 'B', qtyOnHand: 'twelve' };
    server.reply(ok([{ sku: 'A', qtyOnHand: 1 }, bad, { sku: 'C', qtyOnHand: 3 }]));
    const result = await client.listOwnedInventory({ supplierId: 'S1' });
    expect(result.records.map((r) => r.sku)).toEqual(['A', 'C']);
    expect(result.rejected).toHaveLength(1);
    expect(result.rejected[0]).toMatchObject({ index: 1, raw: bad });
    expect(result.rejected[0]?.reason).toMatch(/^qtyOnHand: /);
  });

  it('keeps members the spec does not detail', async () => {
    server.reply(ok([{ invoiceNumber: 'I1', futureField: { nested: true } }]));
    const result = await client.listInvoices({});
    expect(result.records[0]).toMatchObject({ invoiceNumber: 'I1', futureField: { nested: true } });
  });

  it('accepts enum values the spec does not list, and nulls', async () => {
    server.reply(ok([{ orderNumber: 'IN-1', statusCode: 'ON_HOLD', warehouseName: null }]));
    const result = await client.listTransfersIn({ supplierId: 'S1' });
    expect(result.records[0]?.statusCode).toBe('ON_HOLD');
    expect(result.rejected).toEqual([]);
  });

  it('reports the path of a nested failure', async () => {
    server.reply(ok([{ header: { containerId: 'C1' }, events: [{ eventTime: 'yesterday' }] }]));
    const result = await client.listShipmentUpdates({
      accountNumber: 'AC',
      beginDate: '2026-03-01T00:00',
      endDate: '2026-03-01T06:00',
    });
    expect(result.records).toEqual([]);
    expect(result.rejected[0]?.reason).toBe('events.0.eventTime: expected an ISO 8601 date-time');
  });

  it('an invalid detail is rejected with record null; a null payload is not found', async () => {
    const broken = { header: { creationDate: '2026-03-01T10:00:00' } };
    server.reply(ok(broken), ok(null));
    const invalid = await client.getOrderDetail('AC', 'O1');
    expect(invalid.record).toBeNull();
    expect(invalid.rejected[0]).toMatchObject({ index: 0, raw: broken });
    expect(invalid.rejected[0]?.reason).toContain('header.isOnsitePurchase');
    expect(await client.getOrderDetail('AC', 'O2')).toEqual({ record: null, rejected: [], repaired: [] });
  });
});
