import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { OrderDetail, OwnedInventory, TransferInListRow } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { inventoryStream, planInventoryWindows } from '../../src/streams/inventory.ts';
import { requestOrderDetails } from '../../src/streams/orderRequests.ts';
import { ordersStream, planOrderWindows } from '../../src/streams/orders.ts';
import { OPEN_WINDOW_FILTER, transfersInStream } from '../../src/streams/transfersIn.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { EventSink, Window } from '../../src/sync/types.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { orderHeader } from '../helpers/orderRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * The record shapes of inventory, transfers_in and orders reach the event rules intact: a vanished
 * row goes out of stock, a detail-enriched IN reports received quantities, an order detail its holds.
 */

const logger = pino({ level: 'silent' });
const now = new Date('2026-06-10T18:00:00Z');

let t: TestDatabase;
let config: Config;
let eventSink: EventSink;
const state = {
  inventory: [] as OwnedInventory[],
  ins: [] as TransferInListRow[],
  received: 0,
  order: undefined as OrderDetail | undefined,
};
const client = {
  listOwnedInventory: async (q: { warehouseCode?: string }) => ({
    records: q.warehouseCode === 'GLW' ? structuredClone(state.inventory) : [],
    rejected: [],
  }),
  listTransfersIn: async (q: { statusCode?: string }) => ({
    records: structuredClone(state.ins.filter((r) => !q.statusCode || r.statusCode === q.statusCode)),
    rejected: [],
  }),
  getTransferInDetail: async (_s: string, orderNumber: string) => {
    const header = state.ins.find((r) => r.orderNumber === orderNumber);
    return {
      record: header
        ? {
            header,
            lineItems: [{ lineNumber: 1, sku: 'A', qtyOrdered: 10, qtyReceived: state.received }],
            notes: [],
          }
        : null,
      rejected: [],
    };
  },
  getOrderDetail: async () => ({ record: structuredClone(state.order ?? null), rejected: [] }),
} as unknown as FulfillmentClient;

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
  eventSink = createEventSink({
    timezone: config.timezone,
    thresholds: { lowStockThreshold: 2, lowStockThresholdsBySku: {} },
  });
});
afterAll(() => t?.close());

async function eventTypes(kind: string): Promise<string[]> {
  const res = await t.pool.query('SELECT type FROM sync.events WHERE subject_kind = $1 ORDER BY seq', [kind]);
  return res.rows.map((r) => r.type);
}

const run = (
  stream: Parameters<typeof runStream>[0]['stream'],
  scope: { kind: 'supplier' | 'account'; id: string },
  windows: Window[],
) => runStream({ pool: t.pool, client, config, logger, stream, scope, now, windows, eventSink });

describe('events from the stream record shapes', () => {
  it('inventory: a row that vanishes from the snapshot goes out of stock', async () => {
    const windows = planInventoryWindows({ now }, ['GLW']);
    state.inventory = [
      {
        warehouseCode: 'GLW',
        subInventoryCode: 'FG',
        sku: 'A',
        qtyOnHand: 5,
        qtyOnOrders: 0,
        qtyOnIns: 0,
        qtyAvailableToSell: 5,
        qtyAvailableToPromise: 5,
      },
    ];
    await run(inventoryStream, { kind: 'supplier', id: 'SUP1' }, windows);
    state.inventory = [];
    expect(await run(inventoryStream, { kind: 'supplier', id: 'SUP1' }, windows)).toMatchObject({
      updated: 1,
    });
    const types = await eventTypes('inventory');
    expect(types).toContain('inventory.out_of_stock');
    // One when first seen, one when it vanished.
    expect(types.filter((x) => x === 'inventory.changed')).toHaveLength(2);
  });

  it('transfers_in: the detail fetched for a changed list row reports what was received', async () => {
    const windows: Window[] = [{ kind: 'filter', start: now, end: now, filter: OPEN_WINDOW_FILTER }];
    const row: TransferInListRow = {
      supplierId: 'SUP1',
      orderNumber: 'IN1',
      statusCode: 'SUBMITTED',
      lastUpdateDate: '2026-06-09T10:00:00',
    };
    state.ins = [row];
    await run(transfersInStream, { kind: 'supplier', id: 'SUP1' }, windows);
    state.ins = [{ ...row, statusCode: 'PROCESSING', lastUpdateDate: '2026-06-10T10:00:00' }];
    state.received = 4;
    await run(transfersInStream, { kind: 'supplier', id: 'SUP1' }, windows);
    expect(await eventTypes('transfer_in')).toEqual(
      expect.arrayContaining(['transfer_in.created', 'transfer_in.status_changed', 'transfer_in.received']),
    );
  });

  it('orders: a hold that appears in the detail is announced', async () => {
    const header = orderHeader('O1');
    const windows = planOrderWindows({ now });
    state.order = { header, holds: [] };
    await requestOrderDetails(t.pool, 'ACC1', ['O1'], 'user');
    await run(ordersStream, { kind: 'account', id: 'ACC1' }, windows);
    state.order = {
      header: { ...header, hasInventoryHold: true },
      holds: [{ holdName: 'STOCK', creationDate: '2026-06-02T10:00:00', isDirectlyReleasable: true }],
    };
    await requestOrderDetails(t.pool, 'ACC1', ['O1'], 'user');
    await run(ordersStream, { kind: 'account', id: 'ACC1' }, windows);
    expect(await eventTypes('order')).toContain('order.hold_added');
  });
});
