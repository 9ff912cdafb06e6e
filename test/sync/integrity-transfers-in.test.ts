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

/**
 * An open IN that no open list returns is followed by key every run; when its detail did not
 * change, the re-sync must write nothing (the detail's fetch time is not a change).
 */

const logger = pino({ level: 'silent' });
const scope = { kind: 'supplier' as const, id: 'SUPT' };
const TABLES = ['transfers_in', 'transfer_in_lines', 'transfer_in_notes'];
let now = new Date('2026-06-10T18:00:00Z');
const dayWindow: Window = {
  kind: 'day',
  start: new Date('2026-06-01T07:00:00Z'),
  end: new Date('2026-06-10T07:00:00Z'),
};
const openWindow: Window = { kind: 'filter', start: now, end: now, filter: OPEN_WINDOW_FILTER };

function listRow(statusCode: string): TransferInListRow {
  return {
    supplierId: scope.id,
    rowId: 1,
    orderNumber: 'IN9',
    referenceNumber: 'R-IN9',
    warehouseCode: 'GLW',
    submittedDate: '2026-06-02T09:00:00',
    statusCode,
    statusName: statusCode.toLowerCase(),
    lastUpdateDate: '2026-06-05T10:00:00',
  };
}

function detailOf(row: TransferInListRow): TransferInDetail {
  return {
    header: { ...row, closedDate: null, pickupSitePhone: '555' },
    lineItems: [{ lineNumber: 1, sku: 'A', qtyOrdered: 10, qtyReceived: 0 }],
    notes: [{ typeCode: 'INFO', noteTimestamp: '2026-06-05T10:00:00', noteText: 'hello' }],
  };
}

let t: TestDatabase;
let config: Config;
let current = listRow('SUBMITTED');
let listed = true;
const detailCalls: string[] = [];
const client = {
  // `listed` false: upstream's lists lag behind and no longer return IN9 (its detail still does).
  listTransfersIn: async (q: { statusCode?: string }) => ({
    records:
      listed && (!q.statusCode || q.statusCode === current.statusCode) ? [structuredClone(current)] : [],
    rejected: [],
  }),
  getTransferInDetail: async (_s: string, orderNumber: string) => {
    detailCalls.push(orderNumber);
    return { record: detailOf(structuredClone(current)), rejected: [] };
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

const fetchedAt = async (): Promise<Date> =>
  (await t.pool.query("SELECT detail_fetched_at FROM fulfillment.transfers_in WHERE order_number = 'IN9'"))
    .rows[0].detail_fetched_at;

describe('transfers_in followed by key', () => {
  it('an unchanged open IN followed by key writes zero tuples', async () => {
    expect(await run()).toMatchObject({ status: 'succeeded', inserted: 1 });
    const stamped = await fetchedAt();
    expect(stamped).toBeInstanceOf(Date);

    listed = false;
    for (let i = 0; i < 2; i += 1) {
      detailCalls.length = 0;
      const before = await tuplesWritten(t.pool, TABLES);
      expect(await run()).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0, unchanged: 1 });
      expect(detailCalls).toEqual(['IN9']);
      expect(await tuplesWritten(t.pool, TABLES)).toBe(before);
      expect(await fetchedAt()).toEqual(stamped);
    }
  });

  it('a followed IN whose detail changed is rewritten and its fetch time moves to the run clock', async () => {
    const stamped = await fetchedAt();
    now = new Date(now.getTime() + 3_600_000);
    current = { ...listRow('PROCESSING'), lastUpdateDate: '2026-06-09T10:00:00' };
    expect(await run()).toMatchObject({ status: 'succeeded', updated: 1 });
    const row = await t.pool.query(
      "SELECT status_code, detail_fetched_at FROM fulfillment.transfers_in WHERE order_number = 'IN9'",
    );
    expect(row.rows[0].status_code).toBe('PROCESSING');
    expect(row.rows[0].detail_fetched_at.getTime()).toBeGreaterThan(stamped.getTime());
    expect(row.rows[0].detail_fetched_at).toEqual(now);
  });
});
