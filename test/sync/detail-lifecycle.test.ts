import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RetryableUpstreamError } from '../../src/api/errors.ts';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { TransferInListRow } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { requestOrderDetails } from '../../src/streams/orderRequests.ts';
import { ordersStream } from '../../src/streams/orders.ts';
import { productsStream } from '../../src/streams/products.ts';
import { OPEN_WINDOW_FILTER, transfersInStream } from '../../src/streams/transfersIn.ts';
import { DEFAULT_DETAIL_RETRY, recordDetailFailures } from '../../src/sync/detailRequests.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { EventSink, Window } from '../../src/sync/types.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * The detail queue's lifecycle across streams: one backoff rule (1 min doubling to 6 h, then
 * quarantine) whatever names a record again or fetches it by key; due requests that cannot be
 * served never starve the others; and an IN's events compare against its latest stored state.
 */

const logger = pino({ level: 'silent' });
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
let t: TestDatabase;
let config: Config;
let eventSink: EventSink;

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
  eventSink = createEventSink({
    timezone: config.timezone,
    thresholds: { lowStockThreshold: 2, lowStockThresholdsBySku: {} },
  });
});
afterAll(() => t?.close());

const http503 = () =>
  new RetryableUpstreamError('GET detail: HTTP 503; gave up after 5 attempts', {
    operation: 'detail',
    kind: 'http-status',
    status: 503,
  });
const query = async (sql: string, params: unknown[] = []) => (await t.pool.query(sql, params)).rows;
const requestOf = async (stream: string, scope: string, key: string) =>
  (
    await query(
      'SELECT attempts, next_attempt_at, quarantined_at FROM sync.detail_requests WHERE stream = $1 AND scope = $2 AND record_key = $3',
      [stream, scope, key],
    )
  )[0];

describe('orders: an order named again by a shipment that keeps moving', () => {
  it('keeps backing off (1 min doubling) instead of being due at every name, and is not quarantined within 45 minutes', async () => {
    const account = { kind: 'account' as const, id: 'ACC-MOVING' };
    const calls: string[] = [];
    const client = {
      getOrderDetail: async (_a: string, orderNumber: string) => {
        calls.push(orderNumber);
        throw http503();
      },
    } as unknown as FulfillmentClient;
    const start = new Date('2026-06-10T18:00:00Z');
    // The shipment moves every 5 minutes; each change names its order, then the orders run follows.
    for (let minute = 0; minute <= 45; minute += 5) {
      await requestOrderDetails(t.pool, account.id, ['SLOW'], 'shipment');
      const now = new Date(start.getTime() + minute * MINUTE);
      await runStream({ pool: t.pool, client, config, logger, stream: ordersStream, scope: account, now });
    }
    // Calls at minutes 0, 5 (1 min over), 10 (2 min), 15 (4 min), 25 (8 min), 45 (16 min).
    expect(calls).toHaveLength(6);
    const request = await requestOf('orders', account.id, 'SLOW');
    expect(request).toMatchObject({ attempts: 6, quarantined_at: null });
    expect(request.next_attempt_at).toEqual(new Date(start.getTime() + (45 + 32) * MINUTE));
  });

  it('a user asking again starts over: due at once, attempts from zero', async () => {
    const account = { kind: 'account' as const, id: 'ACC-USER' };
    const calls: string[] = [];
    const client = {
      getOrderDetail: async (_a: string, orderNumber: string) => {
        calls.push(orderNumber);
        throw http503();
      },
    } as unknown as FulfillmentClient;
    const now = new Date('2026-06-10T18:00:00Z');
    const run = () =>
      runStream({ pool: t.pool, client, config, logger, stream: ordersStream, scope: account, now });
    await requestOrderDetails(t.pool, account.id, ['O'], 'shipment');
    await run();
    await requestOrderDetails(t.pool, account.id, ['O'], 'user');
    await run();
    expect(calls).toEqual(['O', 'O']);
    expect(await requestOf('orders', account.id, 'O')).toMatchObject({ attempts: 1 });
  });
});

describe('transfers_in: an open IN that left the open lists and whose detail fails', () => {
  it('is fetched by key only when its backoff is over, and never once quarantined', async () => {
    const scope = { kind: 'supplier' as const, id: 'SUP-LEFT' };
    const row: TransferInListRow = {
      supplierId: scope.id,
      orderNumber: 'IN-LEFT',
      statusCode: 'PROCESSING',
      submittedDate: '2026-06-05T10:00:00',
      lastUpdateDate: '2026-06-05T10:00:00',
    };
    let listed = true;
    let failing = false;
    const calls: string[] = [];
    const client = {
      listTransfersIn: async (q: { statusCode?: string }) => ({
        records: listed && q.statusCode === row.statusCode ? [structuredClone(row)] : [],
        rejected: [],
      }),
      getTransferInDetail: async (_s: string, orderNumber: string) => {
        calls.push(orderNumber);
        if (failing) throw http503();
        return { record: { header: row, lineItems: [], notes: [] }, rejected: [] };
      },
    } as unknown as FulfillmentClient;
    let now = new Date('2026-06-10T18:00:00Z');
    const windows = (): Window[] => [{ kind: 'filter', start: now, end: now, filter: OPEN_WINDOW_FILTER }];
    const run = () =>
      runStream({
        pool: t.pool,
        client,
        config,
        logger,
        stream: transfersInStream,
        scope,
        now,
        windows: windows(),
      });
    expect(await run()).toMatchObject({ status: 'succeeded', inserted: 1 });
    listed = false;
    failing = true;
    calls.length = 0;
    const start = now;
    // 14 runs a minute apart: calls at minutes 0, 1, 3 and 7 (1, 2, 4 minutes of backoff).
    for (let minute = 0; minute < 14; minute += 1) {
      now = new Date(start.getTime() + minute * MINUTE);
      await run();
    }
    expect(calls).toHaveLength(4);
    expect(await requestOf('transfers_in', scope.id, 'IN-LEFT')).toMatchObject({ attempts: 4 });

    // Past every backoff until quarantine, then far beyond it: no call once quarantined.
    for (let i = 4; i < DEFAULT_DETAIL_RETRY.maxAttempts; i += 1) {
      const request = await requestOf('transfers_in', scope.id, 'IN-LEFT');
      now = new Date(request.next_attempt_at.getTime() + 1000);
      await run();
    }
    const quarantined = await requestOf('transfers_in', scope.id, 'IN-LEFT');
    expect(quarantined.attempts).toBe(DEFAULT_DETAIL_RETRY.maxAttempts);
    expect(quarantined.quarantined_at).not.toBeNull();
    calls.length = 0;
    for (let i = 0; i < 3; i += 1) {
      now = new Date(now.getTime() + 24 * HOUR);
      await run();
    }
    expect(calls).toEqual([]);
  });
});

describe('products: due requests of SKUs no longer listed', () => {
  it('never keep a listed product from retrying its failed detail', async () => {
    const scope = { kind: 'supplier' as const, id: 'SUP-PROD' };
    let description = 'Pinot';
    let failing = false;
    const calls: string[] = [];
    const client = {
      listOwnedProducts: async () => ({
        records: [{ supplierId: scope.id, sku: 'W1', description, itemTypeCode: 'WINE' }],
        rejected: [],
      }),
      getProductDetail: async (_s: string, sku: string) => {
        calls.push(sku);
        if (failing) throw http503();
        return {
          record: {
            isOwner: true,
            itemTypeCode: 'WINE',
            header: { supplierId: scope.id, sku, brandName: `Brand of ${description}` },
            sellingInfos: [],
            ptoInfos: [],
            bomInventories: [],
          },
          rejected: [],
        };
      },
    } as unknown as FulfillmentClient;
    let now = new Date('2026-06-10T18:00:00Z');
    const run = () => runStream({ pool: t.pool, client, config, logger, stream: productsStream, scope, now });
    expect(await run()).toMatchObject({ status: 'succeeded', inserted: 1 });

    // Earlier, 500 products failed their detail and were delisted since.
    const delisted = Array.from({ length: 500 }, (_, i) => ({
      recordKey: `GONE-${String(i).padStart(3, '0')}`,
      reason: 'HTTP 503',
    }));
    await recordDetailFailures(
      t.pool,
      'products',
      scope.id,
      delisted,
      new Date(now.getTime() - 24 * HOUR),
      DEFAULT_DETAIL_RETRY,
    );

    // Later the same (Pacific) day: W1's listing changes and its detail fails once.
    description = 'Pinot Noir';
    failing = true;
    now = new Date(now.getTime() + HOUR);
    expect(await run()).toMatchObject({ status: 'partial', detailFailures: 1 });
    expect(await requestOf('products', scope.id, 'W1')).toMatchObject({ attempts: 1 });

    // Its backoff over (still the same day, so only changed rows and due requests get detail).
    failing = false;
    calls.length = 0;
    now = new Date(now.getTime() + HOUR);
    expect(await run()).toMatchObject({ status: 'succeeded' });
    expect(calls).toEqual(['W1']);
    expect(await requestOf('products', scope.id, 'W1')).toBeUndefined();
    const stored = await query('SELECT brand_name FROM fulfillment.products WHERE supplier_id = $1', [
      scope.id,
    ]);
    expect(stored).toEqual([{ brand_name: 'Brand of Pinot Noir' }]);
  });

  it('are cleared by a run that reads the whole listing, without a call for them', async () => {
    const scope = { kind: 'supplier' as const, id: 'SUP-GONE' };
    const calls: string[] = [];
    const client = {
      listOwnedProducts: async () => ({
        records: [{ supplierId: scope.id, sku: 'W1', description: 'Pinot', itemTypeCode: 'WINE' }],
        rejected: [],
      }),
      getProductDetail: async (_s: string, sku: string) => {
        calls.push(sku);
        throw http503();
      },
    } as unknown as FulfillmentClient;
    const now = new Date('2026-06-10T18:00:00Z');
    const gone = ['GONE-1', 'GONE-2'].map((recordKey) => ({ recordKey, reason: 'HTTP 503' }));
    await recordDetailFailures(
      t.pool,
      'products',
      scope.id,
      gone,
      new Date(now.getTime() - 24 * HOUR),
      DEFAULT_DETAIL_RETRY,
    );
    await runStream({ pool: t.pool, client, config, logger, stream: productsStream, scope, now });
    expect(calls).toEqual(['W1']);
    const left = await query('SELECT record_key FROM sync.detail_requests WHERE scope = $1 ORDER BY 1', [
      scope.id,
    ]);
    // W1's own detail failed and waits its backoff; the delisted ones are gone.
    expect(left).toEqual([{ record_key: 'W1' }]);
  });
});

describe('transfers_in events: the previous state is the latest stored one', () => {
  const scope = { kind: 'supplier' as const, id: 'SUP-EV' };
  let row: TransferInListRow = {
    supplierId: scope.id,
    orderNumber: 'IN-EV',
    statusCode: 'SUBMITTED',
    submittedDate: '2026-06-05T10:00:00',
    lastUpdateDate: '2026-06-09T10:00:00',
  };
  let failing = false;
  const client = {
    listTransfersIn: async (q: { statusCode?: string }) => ({
      records: q.statusCode === row.statusCode ? [structuredClone(row)] : [],
      rejected: [],
    }),
    getTransferInDetail: async () => {
      if (failing) throw http503();
      return { record: { header: structuredClone(row), lineItems: [], notes: [] }, rejected: [] };
    },
  } as unknown as FulfillmentClient;
  let now = new Date('2026-06-10T18:00:00Z');
  const run = () =>
    runStream({
      pool: t.pool,
      client,
      config,
      logger,
      stream: transfersInStream,
      scope,
      now,
      windows: [{ kind: 'filter', start: now, end: now, filter: OPEN_WINDOW_FILTER }],
      eventSink,
    });
  const step = async (statusCode: string, detailFails: boolean, hour: number) => {
    row = { ...row, statusCode, lastUpdateDate: `2026-06-10T${String(hour).padStart(2, '0')}:00:00` };
    failing = detailFails;
    now = new Date(now.getTime() + 2 * HOUR); // past any backoff
    await run();
  };
  const transitions = async () =>
    (
      await query(
        `SELECT data FROM sync.events WHERE subject_kind = 'transfer_in' AND type = 'transfer_in.status_changed'
          AND scope = $1 ORDER BY seq`,
        [scope.id],
      )
    ).map((r) => {
      const change = (r.data.changes as { field: string; from: unknown; to: unknown }[]).find(
        (c) => c.field === 'header.statusCode',
      );
      return `${String(change?.from)} -> ${String(change?.to)}`;
    });

  it('a status change while the detail failed, then one with the detail working: each names its own previous status', async () => {
    await run();
    await step('PROCESSING', true, 1);
    await step('RECEIVED', false, 2);
    expect(await transitions()).toEqual(['SUBMITTED -> PROCESSING', 'PROCESSING -> RECEIVED']);
  });

  it('A -> B -> A: the return to A is announced', async () => {
    row = { ...row, orderNumber: 'IN-ABA', statusCode: 'SUBMITTED' };
    await step('SUBMITTED', false, 3);
    await step('PROCESSING', true, 4);
    await step('SUBMITTED', false, 5);
    const all = await transitions();
    expect(all.slice(-2)).toEqual(['SUBMITTED -> PROCESSING', 'PROCESSING -> SUBMITTED']);
  });
});
