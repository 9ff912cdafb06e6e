import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NonRetryableUpstreamError, RetryableUpstreamError } from '../../src/api/errors.ts';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { OrderDetail, TransferInDetail, TransferInListRow } from '../../src/api/records/index.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import type { Config } from '../../src/config/types.ts';
import { requestOrderDetails } from '../../src/streams/orderRequests.ts';
import { ordersStream } from '../../src/streams/orders.ts';
import { productsStream } from '../../src/streams/products.ts';
import { OPEN_WINDOW_FILTER, transfersInStream } from '../../src/streams/transfersIn.ts';
import { DEFAULT_DETAIL_RETRY } from '../../src/sync/detailRequests.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { Window } from '../../src/sync/types.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { orderHeader } from '../helpers/orderRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * A detail that is rejected by its schema, not found, or failing after retries never deletes or
 * alters stored children or detail columns: the list-row change lands, the record is retried on
 * later runs with backoff, then quarantined; and it never holds up the other records.
 */

const logger = pino({ level: 'silent' });
const HOUR = 3_600_000;
let t: TestDatabase;
let config: Config;
let now = new Date('2026-06-10T18:00:00Z');

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

const http503 = () =>
  new RetryableUpstreamError('GET Transfers/INs detail: HTTP 503; gave up after 5 attempts', {
    operation: 'detail',
    kind: 'http-status',
    status: 503,
  });
const query = async (sql: string, params: unknown[] = []) => (await t.pool.query(sql, params)).rows;

describe('transfers_in: a detail that fails', () => {
  const scope = { kind: 'supplier' as const, id: 'SUP1' };
  const windows = (): Window[] => [
    { kind: 'day', start: new Date('2026-06-01T07:00:00Z'), end: new Date('2026-06-10T07:00:00Z') },
    { kind: 'filter', start: now, end: now, filter: OPEN_WINDOW_FILTER },
  ];
  const list: TransferInListRow = {
    supplierId: 'SUP1',
    rowId: 1,
    orderNumber: 'IN1',
    referenceNumber: 'R1',
    warehouseCode: 'GLW',
    submittedDate: '2026-06-05T10:00:00',
    statusCode: 'SUBMITTED',
    statusName: 'submitted',
    lastUpdateDate: '2026-06-05T10:00:00',
  };
  let row = list;
  let detail: 'ok' | 'malformed' | '503' | 'missing' = 'ok';
  let received = 0;
  const detailCalls: string[] = [];
  const detailOf = (r: TransferInListRow): TransferInDetail => ({
    header: { ...r, pickupSitePhone: '555' },
    lineItems: [{ lineNumber: 1, sku: 'A', qtyOrdered: 10, qtyReceived: received }],
    notes: [{ typeCode: 'INFO', noteTimestamp: '2026-06-05T10:00:00', noteText: 'hello' }],
  });
  const client = {
    listTransfersIn: async (q: { statusCode?: string }) => ({
      records: !q.statusCode || q.statusCode === row.statusCode ? [structuredClone(row)] : [],
      rejected: [],
    }),
    getTransferInDetail: async () => {
      detailCalls.push(detail);
      if (detail === '503') throw http503();
      if (detail === 'missing') return { record: null, rejected: [] };
      if (detail === 'malformed')
        return {
          record: null,
          rejected: [{ index: 0, reason: 'lineItems.0.qtyReceived: expected number', raw: {} }],
        };
      return { record: detailOf(row), rejected: [] };
    },
  } as unknown as FulfillmentClient;
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
  const stored = async () => ({
    parent: (
      await query(
        "SELECT status_code, pickup_site_phone, detail_fetched_at FROM fulfillment.transfers_in WHERE order_number = 'IN1'",
      )
    )[0],
    lines: await query(
      "SELECT line_number, qty_received FROM fulfillment.transfer_in_lines WHERE order_number = 'IN1'",
    ),
    notes: (
      await query("SELECT count(*)::int AS n FROM fulfillment.transfer_in_notes WHERE order_number = 'IN1'")
    )[0]?.n,
  });
  const request = async () =>
    (
      await query(
        "SELECT attempts, next_attempt_at, last_error, quarantined_at FROM sync.detail_requests WHERE stream = 'transfers_in'",
      )
    )[0];

  it('lands the list change, keeps the stored lines, notes and detail columns, and queues a retry', async () => {
    received = 2;
    expect(await run()).toMatchObject({ status: 'succeeded', inserted: 1 });
    const before = await stored();
    expect(before.lines).toEqual([{ line_number: 1, qty_received: 2 }]);

    for (const failure of ['malformed', '503', 'missing'] as const) {
      detail = failure;
      row = { ...list, statusCode: failure === 'missing' ? 'PROCESSING' : `S-${failure}` };
      now = new Date(now.getTime() + 24 * HOUR); // past any backoff
      const result = await run();
      expect(result.status).toBe('partial');
      expect(result.detailFailures).toBeGreaterThan(0);
      const after = await stored();
      expect(after.parent.status_code).toBe(row.statusCode);
      expect(after.parent.pickup_site_phone).toBe('555');
      expect(after.parent.detail_fetched_at).toEqual(before.parent.detail_fetched_at);
      expect(after.lines).toEqual(before.lines);
      expect(after.notes).toBe(1);
      const queued = await request();
      expect(queued.last_error).toMatch(
        failure === '503' ? /503/ : failure === 'missing' ? /not found/ : /schema/,
      );
      expect(queued.next_attempt_at.getTime()).toBeGreaterThan(now.getTime());
    }
  });

  it('does not call again before the backoff, then fetches the detail of the unchanged row and clears the request', async () => {
    detailCalls.length = 0;
    detail = 'ok';
    received = 5;
    expect(await run()).toMatchObject({ status: 'succeeded', updated: 0 });
    expect(detailCalls).toEqual([]);

    now = new Date((await request()).next_attempt_at.getTime() + 1000);
    const result = await run();
    expect(result.status).toBe('succeeded');
    expect(detailCalls).toEqual(['ok']);
    expect((await stored()).lines).toEqual([{ line_number: 1, qty_received: 5 }]);
    expect(await request()).toBeUndefined();
  });

  it('quarantines after the configured number of attempts, visibly, and then stops calling', async () => {
    detail = '503';
    row = { ...row, statusCode: 'PROCESSING', lastUpdateDate: '2026-06-09T10:00:00' };
    for (let i = 0; i < DEFAULT_DETAIL_RETRY.maxAttempts; i += 1) {
      const queued = await request();
      if (queued?.next_attempt_at) now = new Date(queued.next_attempt_at.getTime() + 1000);
      await run();
    }
    const queued = await request();
    expect(queued.attempts).toBe(DEFAULT_DETAIL_RETRY.maxAttempts);
    expect(queued.quarantined_at).toEqual(now);
    const rejected = await query(
      "SELECT kind, record_key, reason FROM sync.rejected_records WHERE stream = 'transfers_in'",
    );
    expect(rejected).toEqual([
      expect.objectContaining({ kind: 'detail', record_key: 'IN1', reason: expect.stringMatching(/503/) }),
    ]);
    detailCalls.length = 0;
    now = new Date(now.getTime() + 48 * HOUR);
    await run();
    expect(detailCalls).toEqual([]);
  });
});

describe('products: a detail that fails', () => {
  const scope = { kind: 'supplier' as const, id: 'SUPP' };
  let description = 'Pinot';
  let detailFails = false;
  const client = {
    listOwnedProducts: async () => ({
      records: [{ supplierId: 'SUPP', sku: 'W1', description, itemTypeCode: 'WINE' }],
      rejected: [],
    }),
    getProductDetail: async () => {
      if (detailFails) return { record: null, rejected: [] };
      return {
        record: {
          isOwner: true,
          itemTypeCode: 'WINE',
          header: { supplierId: 'SUPP', sku: 'W1', brandName: 'Brand', retailPrice: 20 },
          sellingInfos: [{ sellerAccountNumber: 'S1', retailPrice: 20 }],
          ptoInfos: [{ componentNumber: 1, sku: 'C', quantity: 2 }],
          bomInventories: [],
        },
        rejected: [],
      };
    },
  } as unknown as FulfillmentClient;
  const run = () => runStream({ pool: t.pool, client, config, logger, stream: productsStream, scope, now });

  it('keeps the detail columns, selling infos and PTO components when the detail of a changed listing row fails', async () => {
    expect(await run()).toMatchObject({ status: 'succeeded', inserted: 1 });
    description = 'Pinot Noir';
    detailFails = true;
    now = new Date(now.getTime() + HOUR); // the same Pacific day: detail for changed rows only
    expect(await run()).toMatchObject({ status: 'partial', updated: 1, detailFailures: 1 });
    const product = (
      await query("SELECT description, brand_name FROM fulfillment.products WHERE sku = 'W1'")
    )[0];
    expect(product).toEqual({ description: 'Pinot Noir', brand_name: 'Brand' });
    expect((await query('SELECT count(*)::int AS n FROM fulfillment.product_selling_infos'))[0]?.n).toBe(1);
    expect((await query('SELECT count(*)::int AS n FROM fulfillment.product_pto_components'))[0]?.n).toBe(1);
  });
});

describe('orders: one order whose detail keeps failing', () => {
  const account = { kind: 'account' as const, id: 'ACC1' };
  const failures = new Map<string, () => Error>();
  const calls: string[] = [];
  const client = {
    getOrderDetail: async (_a: string, orderNumber: string) => {
      calls.push(orderNumber);
      const failure = failures.get(orderNumber);
      if (failure) throw failure();
      return { record: { header: orderHeader(orderNumber) } as OrderDetail, rejected: [] };
    },
  } as unknown as FulfillmentClient;
  const run = () =>
    runStream({ pool: t.pool, client, config, logger, stream: ordersStream, scope: account, now });

  it('lands the other orders, keeps its request with a backoff, and does not block the queue', async () => {
    failures.set('BAD', http503);
    failures.set(
      'GONE',
      () => new NonRetryableUpstreamError('HTTP 404', { operation: 'o', kind: 'http-status', status: 404 }),
    );
    await requestOrderDetails(t.pool, 'ACC1', ['BAD', 'GONE', 'A', 'B'], 'shipment');
    const result = await run();
    expect(result).toMatchObject({ status: 'partial', inserted: 2, detailFailures: 2 });
    expect(await query('SELECT order_number FROM fulfillment.orders ORDER BY 1')).toEqual([
      { order_number: 'A' },
      { order_number: 'B' },
    ]);
    // Newer requests are served while BAD waits out its backoff.
    calls.length = 0;
    await requestOrderDetails(t.pool, 'ACC1', ['C'], 'shipment');
    expect(await run()).toMatchObject({ status: 'succeeded', inserted: 1 });
    expect(calls).toEqual(['C']);
    // A request named again by a newer change keeps its backoff and attempts: it is not called
    // before the backoff is over, however often it is named, then it is.
    const bad = async () =>
      (
        await query(
          "SELECT attempts, next_attempt_at FROM sync.detail_requests WHERE stream = 'orders' AND record_key = 'BAD'",
        )
      )[0];
    await requestOrderDetails(t.pool, 'ACC1', ['BAD'], 'shipment');
    calls.length = 0;
    await run();
    expect(calls).toEqual([]);
    expect(await bad()).toMatchObject({ attempts: 1 });
    now = new Date((await bad()).next_attempt_at.getTime() + 1000);
    await requestOrderDetails(t.pool, 'ACC1', ['BAD'], 'shipment');
    await run();
    expect(calls.filter((c) => c === 'BAD')).toEqual(['BAD']);
    expect(await bad()).toMatchObject({ attempts: 2 });
  });
});

describe('FULFILLMENT_DETAIL_MAX_ATTEMPTS', () => {
  const account = { kind: 'account' as const, id: 'ACCMAX' };
  const calls: string[] = [];
  const client = {
    getOrderDetail: async (_a: string, orderNumber: string) => {
      calls.push(orderNumber);
      throw http503();
    },
  } as unknown as FulfillmentClient;
  const request = async () =>
    (
      await query(
        'SELECT attempts, next_attempt_at, quarantined_at FROM sync.detail_requests WHERE scope = $1',
        [account.id],
      )
    )[0];
  const detailRows = () =>
    query("SELECT record_key, reason FROM sync.rejected_records WHERE scope = $1 AND kind = 'detail'", [
      account.id,
    ]);

  it('as configured (2, not the default 10): quarantines at the second failed attempt, then stops calling', async () => {
    // Through the environment variable, as an operator sets it.
    const two = loadConfig({ DATABASE_URL: t.url, FULFILLMENT_DETAIL_MAX_ATTEMPTS: '2' });
    expect(two.details.maxAttempts).not.toBe(DEFAULT_DETAIL_RETRY.maxAttempts);
    let at = new Date('2026-06-12T18:00:00Z');
    const run = () =>
      runStream({ pool: t.pool, client, config: two, logger, stream: ordersStream, scope: account, now: at });
    await requestOrderDetails(t.pool, account.id, ['STUCK'], 'shipment');

    await run();
    const first = await request();
    expect(first).toMatchObject({ attempts: 1, quarantined_at: null });
    expect(first.next_attempt_at.getTime()).toBeGreaterThan(at.getTime());
    expect(await detailRows()).toEqual([]);

    at = new Date(first.next_attempt_at.getTime() + 1000);
    await run();
    expect(await request()).toMatchObject({ attempts: 2, quarantined_at: at });
    expect(await detailRows()).toEqual([
      { record_key: 'STUCK', reason: expect.stringMatching(/^detail kept failing .*503/) },
    ]);

    calls.length = 0;
    at = new Date(at.getTime() + 48 * HOUR);
    await run();
    expect(calls).toEqual([]);
    expect(await request()).toMatchObject({ attempts: 2 });
  });
});
