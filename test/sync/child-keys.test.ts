import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type {
  OrderDetail,
  ShipmentUpdate,
  TransferInDetail,
  TransferInListRow,
} from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { requestOrderDetails } from '../../src/streams/orderRequests.ts';
import { ordersStream } from '../../src/streams/orders.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { OPEN_WINDOW_FILTER, transfersInStream } from '../../src/streams/transfersIn.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { StreamDefinition, Window } from '../../src/sync/types.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { orderHeader } from '../helpers/orderRecords.ts';
import { shipmentHeader } from '../helpers/shipmentRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * Keys from meaning (issue 24 item 4): child records without an id of their own (order holds and
 * messages, IN notes, shipment tracking events) are keyed by a hash of what they say. The same
 * record sent once without an offset and once in UTC (or a code in another case, a text with other
 * spacing) is one record: one row, and no second event. Scripted upstream, real Postgres, real
 * event sink. Times: June in America/Los_Angeles is UTC-7.
 */

const logger = pino({ level: 'silent' });
let t: TestDatabase;
let config: Config;
beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

let order: OrderDetail;
let shipment: ShipmentUpdate;
let inRow: TransferInListRow;
let inDetail: TransferInDetail;
const client = {
  getOrderDetail: async () => ({ record: structuredClone(order), rejected: [] }),
  listShipmentUpdates: async () => ({ records: [structuredClone(shipment)], rejected: [] }),
  listTransfersIn: async (q: { statusCode?: string }) => ({
    records: q.statusCode === inRow.statusCode ? [structuredClone(inRow)] : [],
    rejected: [],
  }),
  getTransferInDetail: async () => ({ record: structuredClone(inDetail), rejected: [] }),
} as unknown as FulfillmentClient;

const now = new Date('2026-06-02T18:00:00Z');
// biome-ignore lint/suspicious/noExplicitAny: each stream has its own record type.
function run(stream: StreamDefinition<any, any>, scope: string, windows?: Window[]) {
  return runStream({
    pool: t.pool,
    client,
    config,
    logger,
    stream,
    scope: { kind: stream.scopeKind, id: scope },
    now,
    ...(windows ? { windows } : {}),
    eventSink: createEventSink({ timezone: config.timezone, thresholds: config.events }),
  });
}

async function rows(table: string): Promise<Array<Record<string, unknown>>> {
  return (await t.pool.query(`SELECT * FROM fulfillment.${table}`)).rows;
}

async function eventTypes(scope: string, runId: number | undefined): Promise<string[]> {
  const res = await t.pool.query<{ type: string }>(
    'SELECT type FROM sync.events WHERE scope = $1 AND run_id = $2 ORDER BY type',
    [scope, runId],
  );
  return res.rows.map((r) => r.type);
}

describe('child keys hash what a record says, not how it is spelled', () => {
  it('order holds and messages: the same rows, and only the status change is announced', async () => {
    order = {
      header: orderHeader('O1', { orderStatusCode: 'SHIPPED', hasInventoryHold: true }),
      holds: [{ holdName: 'CREDIT', creationDate: '2026-06-01T11:00:00', isDirectlyReleasable: true }],
      messages: [{ messageType: 'INFO', message: 'Left at the door', messageTime: '2026-06-01T12:00:00' }],
    };
    await requestOrderDetails(t.pool, 'ACC1', ['O1'], 'user');
    expect(await run(ordersStream, 'ACC1')).toMatchObject({ status: 'succeeded', inserted: 1 });
    const holdKeys = (await rows('order_holds')).map((r) => r.hold_key);
    const messageKeys = (await rows('order_messages')).map((r) => r.message_key);
    // The same hold and message in UTC, the type in lower case; and the order moved on.
    order = {
      header: orderHeader('O1', { orderStatusCode: 'DELIVERED', hasInventoryHold: true }),
      holds: [{ holdName: 'CREDIT', creationDate: '2026-06-01T18:00:00Z', isDirectlyReleasable: true }],
      messages: [
        { messageType: 'info', message: 'Left at the door', messageTime: '2026-06-01T19:00:00.000Z' },
      ],
    };
    await requestOrderDetails(t.pool, 'ACC1', ['O1'], 'user');
    const second = await run(ordersStream, 'ACC1');
    expect(second).toMatchObject({ status: 'succeeded', updated: 1 });
    // The same rows under the same keys: not deleted and inserted again under a new spelling.
    expect((await rows('order_holds')).map((r) => r.hold_key)).toEqual(holdKeys);
    expect((await rows('order_messages')).map((r) => r.message_key)).toEqual(messageKeys);
    expect(await eventTypes('ACC1', second.lastRunId)).toEqual(['order.status_changed']);
  });

  it('shipment tracking events: the same row for the same scan, and only the new scan is announced', async () => {
    shipment = {
      header: shipmentHeader('C1', 'IN_TRANSIT'),
      events: [
        { eventTime: '2026-06-01T09:00:00', city: 'Napa', stateOrProvince: 'CA', description: 'Picked up' },
      ],
    };
    expect(await run(shipmentsStream, 'ACC2')).toMatchObject({ status: 'succeeded', inserted: 1 });
    const [pickedUp] = (await rows('shipment_events')).map((r) => r.event_key);
    shipment = {
      header: shipmentHeader('C1', 'DELIVERED'),
      events: [
        {
          eventTime: '2026-06-01T16:00:00Z',
          city: 'NAPA',
          stateOrProvince: 'CA',
          description: 'Picked  up ',
        },
        { eventTime: '2026-06-02T10:00:00', city: 'Sonoma', stateOrProvince: 'CA', description: 'Delivered' },
      ],
    };
    const second = await run(shipmentsStream, 'ACC2');
    expect(second).toMatchObject({ status: 'succeeded', updated: 1 });
    const keys = (await rows('shipment_events')).map((r) => r.event_key);
    expect(keys).toHaveLength(2);
    expect(keys).toContain(pickedUp);
    const types = await eventTypes('ACC2', second.lastRunId);
    expect(types.filter((type) => type === 'shipment.tracking_event')).toHaveLength(1);
  });

  it('IN notes: the same row under the same key', async () => {
    const openWindow: Window = { kind: 'filter', start: now, end: now, filter: OPEN_WINDOW_FILTER };
    inRow = {
      supplierId: 'SUP1',
      rowId: 1,
      orderNumber: 'IN-1',
      referenceNumber: 'R-1',
      warehouseCode: 'GLW',
      submittedDate: '2026-06-01T10:00:00',
      statusCode: 'SUBMITTED',
      statusName: 'submitted',
      lastUpdateDate: '2026-06-01T10:00:00',
    };
    inDetail = {
      header: { ...inRow },
      lineItems: [{ lineNumber: 1, sku: 'A', qtyOrdered: 10, qtyReceived: 0 }],
      notes: [{ typeCode: 'INFO', noteTimestamp: '2026-06-01T10:00:00', noteText: 'Dock 4' }],
    };
    expect(await run(transfersInStream, 'SUP1', [openWindow])).toMatchObject({
      status: 'succeeded',
      inserted: 1,
    });
    const noteKeys = (await rows('transfer_in_notes')).map((r) => r.note_key);
    inRow = { ...inRow, statusCode: 'PROCESSING', statusName: 'processing' };
    inDetail = {
      header: { ...inRow },
      lineItems: [{ lineNumber: 1, sku: 'A', qtyOrdered: 10, qtyReceived: 0 }],
      notes: [{ typeCode: 'INFO', noteTimestamp: '2026-06-01T17:00:00Z', noteText: 'Dock 4' }],
    };
    expect(await run(transfersInStream, 'SUP1', [openWindow])).toMatchObject({
      status: 'succeeded',
      updated: 1,
    });
    expect((await rows('transfer_in_notes')).map((r) => r.note_key)).toEqual(noteKeys);
  });
});
