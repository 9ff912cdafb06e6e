import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { TransferInDetail, TransferInListRow } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { OPEN_WINDOW_FILTER, transfersInStream } from '../../src/streams/transfersIn.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { Window } from '../../src/sync/types.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';
import { tuplesWritten } from './tuples.ts';

/** transfers_in with a scripted upstream: detail only for changed list rows; open INs followed by key. */

const logger = pino({ level: 'silent' });
const scope = { kind: 'supplier' as const, id: 'SUP1' };
const TABLES = ['transfers_in', 'transfer_in_lines', 'transfer_in_notes'];
const now = new Date('2026-06-10T18:00:00Z');
const dayWindow: Window = {
  kind: 'day',
  start: new Date('2026-06-01T07:00:00Z'),
  end: new Date('2026-06-10T07:00:00Z'),
};
const openWindow: Window = { kind: 'filter', start: now, end: now, filter: OPEN_WINDOW_FILTER };

function listRow(orderNumber: string, statusCode: string, submittedDate: string | null): TransferInListRow {
  return {
    supplierId: 'SUP1',
    rowId: 1,
    orderNumber,
    referenceNumber: `R-${orderNumber}`,
    warehouseCode: 'GLW',
    submittedDate,
    statusCode,
    statusName: statusCode.toLowerCase(),
    lastUpdateDate: '2026-06-05T10:00:00',
  };
}

function detailOf(row: TransferInListRow, received = 0): TransferInDetail {
  return {
    header: {
      ...row,
      closedDate: row.statusCode === 'CLOSED' ? '2026-06-09T10:00:00' : null,
      pickupSitePhone: '555',
    },
    lineItems: [{ lineNumber: 1, sku: 'A', qtyOrdered: 10, qtyReceived: received }],
    notes: [{ typeCode: 'INFO', noteTimestamp: '2026-06-05T10:00:00', noteText: 'hello' }],
  };
}

let t: TestDatabase;
let config: Config;
const upstream = new Map<string, TransferInListRow>();
const received = new Map<string, number>();
const detailCalls: string[] = [];
const client = {
  listTransfersIn: async (q: { statusCode?: string; beginDate?: string }) => {
    const rows = [...upstream.values()].filter((r) =>
      q.statusCode ? r.statusCode === q.statusCode : r.submittedDate !== null,
    );
    return { records: structuredClone(rows), rejected: [] };
  },
  getTransferInDetail: async (_s: string, orderNumber: string) => {
    detailCalls.push(orderNumber);
    const row = upstream.get(orderNumber);
    return { record: row ? detailOf(row, received.get(orderNumber) ?? 0) : null, rejected: [] };
  },
} as unknown as FulfillmentClient;

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

const run = () =>
  runStream({
    pool: t.pool,
    client,
    config,
    logger,
    stream: transfersInStream,
    scope,
    now,
    windows: [dayWindow, openWindow],
  });

async function stored(orderNumber: string) {
  const res = await t.pool.query('SELECT * FROM fulfillment.transfers_in WHERE order_number = $1', [
    orderNumber,
  ]);
  return res.rows[0];
}

describe('transfers_in stream', () => {
  it('stores list rows with their detail (lines, notes, header extras)', async () => {
    upstream.set('IN1', listRow('IN1', 'SUBMITTED', '2026-06-02T09:00:00'));
    upstream.set('IN2', listRow('IN2', 'DRAFT', null));
    expect(await run()).toMatchObject({ status: 'succeeded', inserted: 2 });
    expect(detailCalls.sort()).toEqual(['IN1', 'IN2']);
    expect(await stored('IN1')).toMatchObject({
      status_code: 'SUBMITTED',
      pickup_site_phone: '555',
      supplier_id: 'SUP1',
    });
    expect((await stored('IN1')).detail_fetched_at).toBeInstanceOf(Date);
    const lines = await t.pool.query(
      'SELECT order_number, line_number, qty_received FROM fulfillment.transfer_in_lines ORDER BY 1',
    );
    expect(lines.rows).toEqual([
      { order_number: 'IN1', line_number: 1, qty_received: 0 },
      { order_number: 'IN2', line_number: 1, qty_received: 0 },
    ]);
    const notes = await t.pool.query('SELECT count(*)::int AS n FROM fulfillment.transfer_in_notes');
    expect(notes.rows[0].n).toBe(2);
  });

  it('fetches no detail and writes zero tuples when the lists did not change', async () => {
    detailCalls.length = 0;
    const before = await tuplesWritten(t.pool, TABLES);
    expect(await run()).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0 });
    expect(detailCalls).toEqual([]);
    expect(await tuplesWritten(t.pool, TABLES)).toBe(before);
  });

  it('fetches detail only for the row that changed in the list', async () => {
    detailCalls.length = 0;
    upstream.set('IN1', {
      ...listRow('IN1', 'PROCESSING', '2026-06-02T09:00:00'),
      lastUpdateDate: '2026-06-08T10:00:00',
    });
    received.set('IN1', 4);
    expect(await run()).toMatchObject({ updated: 1 });
    expect(detailCalls).toEqual(['IN1']);
    const line = await t.pool.query(
      `SELECT qty_received FROM fulfillment.transfer_in_lines WHERE order_number = 'IN1'`,
    );
    expect(line.rows[0].qty_received).toBe(4);
  });

  it('fetches by key an open IN that left every open list (a cancelled draft has no submitted date)', async () => {
    detailCalls.length = 0;
    upstream.set('IN2', { ...listRow('IN2', 'CANCELLED', null), lastUpdateDate: '2026-06-09T10:00:00' });
    expect(await run()).toMatchObject({ updated: 1 });
    expect(detailCalls).toEqual(['IN2']);
    expect(await stored('IN2')).toMatchObject({ status_code: 'CANCELLED' });
    detailCalls.length = 0;
    const before = await tuplesWritten(t.pool, TABLES);
    await run();
    expect(detailCalls).toEqual([]);
    expect(await tuplesWritten(t.pool, TABLES)).toBe(before);
  });
});
