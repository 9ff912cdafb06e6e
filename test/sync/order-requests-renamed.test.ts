import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { OrderDetail } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { requestOrderDetails } from '../../src/streams/orderRequests.ts';
import { ordersStream } from '../../src/streams/orders.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { orderHeader } from '../helpers/orderRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/** A request named again while an orders run fetches it must survive that run's commit. */

const logger = pino({ level: 'silent' });
const account = { kind: 'account' as const, id: 'ACC1' };
const now = new Date('2026-06-01T18:00:00Z');

const order = (orderNumber: string, status: string): OrderDetail => ({
  header: orderHeader(orderNumber, { orderStatusCode: status }),
});

let t: TestDatabase;
let config: Config;
const upstream = new Map<string, OrderDetail>();
// Runs while the orders run is fetching: stands for a shipments run committing meanwhile.
let duringFetch: ((orderNumber: string) => Promise<void>) | undefined;
const client = {
  getOrderDetail: async (_a: string, orderNumber: string) => {
    const answer = structuredClone(upstream.get(orderNumber) ?? null);
    await duringFetch?.(orderNumber);
    return { record: answer, rejected: [] };
  },
} as unknown as FulfillmentClient;

const runOrders = () =>
  runStream({ pool: t.pool, client, config, logger, stream: ordersStream, scope: account, now });
const queued = async () =>
  (await t.pool.query('SELECT record_key AS order_number FROM sync.detail_requests ORDER BY 1')).rows.map(
    (r) => r.order_number,
  );

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

describe('order detail requests', () => {
  it('keeps a request named again during the fetch, so the newer change is fetched by the next run', async () => {
    upstream.set('X', order('X', 'PICKING'));
    upstream.set('Y', order('Y', 'SHIPPED'));
    await requestOrderDetails(t.pool, 'ACC1', ['X', 'Y'], 'shipment');
    duringFetch = async (orderNumber) => {
      if (orderNumber !== 'X') return;
      // The order changes upstream after its detail was read, and a shipments run names it again.
      upstream.set('X', order('X', 'SHIPPED'));
      await requestOrderDetails(t.pool, 'ACC1', ['X'], 'shipment');
    };
    expect(await runOrders()).toMatchObject({ status: 'succeeded', inserted: 2 });
    duringFetch = undefined;
    expect(await queued()).toEqual(['X']);

    expect(await runOrders()).toMatchObject({ status: 'succeeded', updated: 1 });
    expect(await queued()).toEqual([]);
    const stored = await t.pool.query(
      `SELECT order_status_code FROM fulfillment.orders WHERE order_number = 'X'`,
    );
    expect(stored.rows[0].order_status_code).toBe('SHIPPED');
  });

  it('still clears requests that were not named again', async () => {
    await requestOrderDetails(t.pool, 'ACC1', ['Y'], 'return');
    expect(await runOrders()).toMatchObject({ status: 'succeeded' });
    expect(await queued()).toEqual([]);
  });
});
