import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { TransferInListRow } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { OPEN_WINDOW_FILTER, transfersInStream } from '../../src/streams/transfersIn.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { EventSink, Window } from '../../src/sync/types.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * .NET's default DateTime, `0001-01-01T00:00:00`, is how this kind of upstream says "not set". It is
 * no value: NULL in its column, kept as sent in `raw`, never an event time. Read as a time (it used
 * to become 1901-01-01), a new IN's `created` event counted as history and was never delivered.
 */

const logger = pino({ level: 'silent' });
const scope = { kind: 'supplier' as const, id: 'SUPU' };
const windows: Window[] = [
  { kind: 'filter', start: new Date(), end: new Date(), filter: OPEN_WINDOW_FILTER },
];

let t: TestDatabase;
let config: Config;
let eventSink: EventSink;
let ins: TransferInListRow[] = [];
const client = {
  listTransfersIn: async () => ({ records: structuredClone(ins), rejected: [] }),
  getTransferInDetail: async (_s: string, orderNumber: string) => ({
    record: {
      header: structuredClone(ins.find((r) => r.orderNumber === orderNumber)),
      lineItems: [],
      notes: [],
    },
    rejected: [],
  }),
} as unknown as FulfillmentClient;

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
  eventSink = createEventSink({
    timezone: config.timezone,
    thresholds: { lowStockThreshold: 2, lowStockThresholdsBySku: {} },
  });
});
afterAll(() => t?.close());

const run = () =>
  runStream({ pool: t.pool, client, config, logger, stream: transfersInStream, scope, windows, eventSink });

describe('"not set" date-times from the upstream', () => {
  it('a new IN whose dates are 0001-01-01 is stored with NULL dates and announced live', async () => {
    ins = [
      {
        supplierId: scope.id,
        orderNumber: 'IN-OLD',
        statusCode: 'SUBMITTED',
        creationDate: '2026-06-01T09:00:00',
      },
    ];
    expect(await run()).toMatchObject({ status: 'succeeded' }); // the initial load

    ins.push({
      supplierId: scope.id,
      orderNumber: 'IN-NEW',
      statusCode: 'SUBMITTED',
      submittedDate: '0001-01-01T00:00:00',
      creationDate: '0001-01-01T00:00:00',
      expectedDate: '0001-01-01T00:00:00-08:00',
    });
    expect(await run()).toMatchObject({ status: 'succeeded', inserted: 1 });

    const stored = await t.pool.query(
      `SELECT creation_date, submitted_date, expected_date, raw->>'creationDate' AS raw_creation
         FROM fulfillment.transfers_in WHERE order_number = 'IN-NEW'`,
    );
    expect(stored.rows[0]).toEqual({
      creation_date: null,
      submitted_date: null,
      expected_date: null,
      raw_creation: '0001-01-01T00:00:00',
    });
    const created = await t.pool.query(
      `SELECT suppressed, occurred_at FROM sync.events WHERE type = 'transfer_in.created' AND subject_key LIKE '%IN-NEW%'`,
    );
    expect(created.rows).toHaveLength(1);
    expect(created.rows[0].suppressed).toBe(false);
    expect((created.rows[0].occurred_at as Date).getUTCFullYear()).toBeGreaterThan(2000);
  });
});
