import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NonRetryableUpstreamError, RetryableUpstreamError } from '../../src/api/errors.ts';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { OrderDetail } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { requestOrderDetails } from '../../src/streams/orderRequests.ts';
import { ordersStream } from '../../src/streams/orders.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { orderHeader } from '../helpers/orderRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/** One order upstream always refuses is quarantined; the rest of the window lands. */

const logger = pino({ level: 'silent' });
const account = { kind: 'account' as const, id: 'ACC1' };
const now = new Date('2026-06-01T18:00:00Z');

const order = (orderNumber: string): OrderDetail => ({ header: orderHeader(orderNumber) });

let t: TestDatabase;
let config: Config;
const failures = new Map<string, Error>();
const client = {
  getOrderDetail: async (_a: string, orderNumber: string) => {
    const failure = failures.get(orderNumber);
    if (failure) throw failure;
    return { record: order(orderNumber), rejected: [] };
  },
} as unknown as FulfillmentClient;

const runOrders = () =>
  runStream({ pool: t.pool, client, config, logger, stream: ordersStream, scope: account, now });
const count = async (sql: string) => (await t.pool.query(sql)).rows[0].n as number;

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

describe('orders quarantine', () => {
  it('stores the other orders and records the refused one in sync.rejected_records with the reason', async () => {
    failures.set(
      'BAD',
      new NonRetryableUpstreamError('Orders/Detail: HTTP 404', {
        operation: 'Orders/Detail',
        kind: 'http-status',
        status: 404,
      }),
    );
    await requestOrderDetails(t.pool, 'ACC1', ['A', 'BAD', 'C'], 'shipment');
    const result = await runOrders();
    expect(result).toMatchObject({ status: 'partial', inserted: 2, rejected: 1 });
    expect(await count('SELECT count(*)::int AS n FROM fulfillment.orders')).toBe(2);
    const rejected = await t.pool.query(
      'SELECT stream, scope, record_key, reason FROM sync.rejected_records',
    );
    expect(rejected.rows).toHaveLength(1);
    expect(rejected.rows[0]).toMatchObject({ stream: 'orders', scope: 'ACC1', record_key: 'BAD' });
    expect(rejected.rows[0].reason).toContain('HTTP 404');
    // Its request is dropped, so the next run does not fail on it again.
    expect(await count('SELECT count(*)::int AS n FROM sync.detail_requests')).toBe(0);
    expect(await runOrders()).toMatchObject({ status: 'succeeded', rejected: 0 });
  });

  it('a retryable failure still fails the window and keeps every request', async () => {
    failures.set(
      'SLOW',
      new RetryableUpstreamError('Orders/Detail: HTTP 503', {
        operation: 'Orders/Detail',
        kind: 'http-status',
        status: 503,
      }),
    );
    await requestOrderDetails(t.pool, 'ACC1', ['D', 'SLOW'], 'shipment');
    expect(await runOrders()).toMatchObject({ status: 'failed' });
    expect(await count(`SELECT count(*)::int AS n FROM fulfillment.orders WHERE order_number = 'D'`)).toBe(0);
    expect(await count('SELECT count(*)::int AS n FROM sync.detail_requests')).toBe(2);
  });
});
