import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { OrderDetail, OwnedProduct, ProductDetail } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { requestOrderDetails } from '../../src/streams/orderRequests.ts';
import { ordersStream } from '../../src/streams/orders.ts';
import { planProductWindows, productsStream } from '../../src/streams/products.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { orderHeader } from '../helpers/orderRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';
import { tuplesWritten } from './tuples.ts';

/** products and orders with a scripted upstream, on real Postgres. */

const logger = pino({ level: 'silent' });
const supplier = { kind: 'supplier' as const, id: 'SUP1' };
const account = { kind: 'account' as const, id: 'ACC1' };
const PRODUCT_TABLES = [
  'products',
  'product_selling_infos',
  'product_pto_components',
  'product_bom_inventories',
];
const ORDER_TABLES = ['orders', 'order_lines', 'order_holds', 'order_messages', 'order_addresses'];

const listing = (sku: string, description = `wine ${sku}`): OwnedProduct => ({
  supplierId: 'SUP1',
  sku,
  description,
  providerSku: `P${sku}`,
  itemTypeCode: 'WINE',
});
const detail = (sku: string, price = 20): ProductDetail => ({
  isOwner: true,
  itemTypeCode: 'WINE',
  header: {
    supplierId: 'SUP1',
    sku,
    description: `wine ${sku}`,
    brandName: 'Brand',
    retailPrice: price,
    weight: 1.5,
  },
  sellingInfos: [{ sellerAccountNumber: 'ACC1', sku, retailPrice: price }],
  ptoInfos: [],
  bomInventories: [{ warehouseCode: 'GLW', subInventoryCode: 'FG', sku, gsetsOnhand: 3 }],
});
const order = (orderNumber: string, holds = 0): OrderDetail => ({
  header: orderHeader(orderNumber, { hasInventoryHold: holds > 0 }),
  holds: Array.from({ length: holds }, (_, i) => ({
    holdName: `H${i}`,
    creationDate: '2026-06-01T11:00:00',
    isDirectlyReleasable: true,
  })),
  messages: [{ messageType: 'INFO', message: 'hi', messageTime: '2026-06-01T12:00:00' }],
  shipToConsumers: [{ isResidentialAddress: true, firstName: 'Ann', city: 'Napa' }],
  soldToConsumers: [{ isResidentialAddress: true, firstName: 'Ann' }],
  lineItems: [{ lineNumber: '1', componentNumber: null, sku: 'A', quantityOrdered: 2, unitPrice: 12.5 }],
  packages: [{ shipmentKey: 'K1' }],
});

let t: TestDatabase;
let config: Config;
const products = new Map<string, { listing: OwnedProduct; detail: ProductDetail }>();
const orders = new Map<string, OrderDetail>();
const calls: string[] = [];
const client = {
  listOwnedProducts: async () => ({
    records: [...products.values()].map((p) => structuredClone(p.listing)),
    rejected: [],
  }),
  getProductDetail: async (_s: string, sku: string) => {
    calls.push(`product ${sku}`);
    return { record: structuredClone(products.get(sku)?.detail ?? null), rejected: [] };
  },
  getOrderDetail: async (_a: string, orderNumber: string) => {
    calls.push(`order ${orderNumber}`);
    return { record: structuredClone(orders.get(orderNumber) ?? null), rejected: [] };
  },
} as unknown as FulfillmentClient;

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

const day1 = new Date('2026-06-01T18:00:00Z');
const runProducts = (now: Date) =>
  runStream({ pool: t.pool, client, config, logger, stream: productsStream, scope: supplier, now });

describe('products stream', () => {
  it('plans detail for all on the first run of a day, for changed rows otherwise', () => {
    const tz = 'America/Los_Angeles';
    const cursor = (at?: Date) => ({ position: undefined, lastSuccessAt: at });
    expect(planProductWindows({ cursor: cursor(), now: day1, timezone: tz })[0]?.filter).toEqual({
      detail: 'all',
    });
    expect(planProductWindows({ cursor: cursor(day1), now: day1, timezone: tz })[0]?.filter).toEqual({
      detail: 'changed',
    });
    const nextDay = new Date(day1.getTime() + 86_400_000);
    expect(planProductWindows({ cursor: cursor(day1), now: nextDay, timezone: tz })[0]?.filter).toEqual({
      detail: 'all',
    });
  });

  it('stores listing and detail with children, then a same-day run fetches nothing more and writes nothing', async () => {
    products.set('A', { listing: listing('A'), detail: detail('A') });
    expect(await runProducts(day1)).toMatchObject({ status: 'succeeded', inserted: 1 });
    const row = (await t.pool.query('SELECT * FROM fulfillment.products')).rows[0];
    expect(row).toMatchObject({
      supplier_id: 'SUP1',
      sku: 'A',
      brand_name: 'Brand',
      retail_price: '20',
      is_owner: true,
    });
    expect(row.detail_fetched_at).toBeInstanceOf(Date);
    expect((await t.pool.query('SELECT * FROM fulfillment.product_bom_inventories')).rows[0]).toMatchObject({
      sku: 'A',
      record_sku: 'A',
      gsets_onhand: 3,
    });
    calls.length = 0;
    const before = await tuplesWritten(t.pool, PRODUCT_TABLES);
    expect(await runProducts(new Date(day1.getTime() + 3_600_000))).toMatchObject({
      inserted: 0,
      updated: 0,
    });
    expect(calls).toEqual([]);
    expect(await tuplesWritten(t.pool, PRODUCT_TABLES)).toBe(before);
  });

  it('fetches the detail of a new SKU the same day, and of every SKU the next day', async () => {
    products.set('B', { listing: listing('B'), detail: detail('B') });
    calls.length = 0;
    expect(await runProducts(new Date(day1.getTime() + 7_200_000))).toMatchObject({
      inserted: 1,
      unchanged: 1,
    });
    expect(calls).toEqual(['product B']);
    products.set('A', { listing: listing('A'), detail: detail('A', 25) });
    calls.length = 0;
    expect(await runProducts(new Date(day1.getTime() + 86_400_000))).toMatchObject({
      updated: 1,
      unchanged: 1,
    });
    expect(calls.sort()).toEqual(['product A', 'product B']);
    const prices = await t.pool.query(
      'SELECT sku, retail_price::float8 AS retail_price FROM fulfillment.product_selling_infos ORDER BY sku',
    );
    expect(prices.rows).toEqual([
      { sku: 'A', retail_price: 25 },
      { sku: 'B', retail_price: 20 },
    ]);
  });
});

describe('orders stream', () => {
  const runOrders = () =>
    runStream({ pool: t.pool, client, config, logger, stream: ordersStream, scope: account, now: day1 });

  it('fetches each requested order once and clears the requests in the same transaction', async () => {
    orders.set('O1', order('O1'));
    orders.set('O2', order('O2', 1));
    await requestOrderDetails(t.pool, 'ACC1', ['O1', 'O2', 'O1', 'GONE'], 'shipment');
    orders.delete('GONE');
    calls.length = 0;
    // An order upstream does not find is a detail failure: kept, retried later with backoff.
    expect(await runOrders()).toMatchObject({ status: 'partial', inserted: 2, detailFailures: 1 });
    expect(calls.sort()).toEqual(['order GONE', 'order O1', 'order O2']);
    const left = await t.pool.query('SELECT record_key, attempts FROM sync.detail_requests');
    expect(left.rows).toEqual([{ record_key: 'GONE', attempts: 1 }]);
    await t.pool.query('DELETE FROM sync.detail_requests');
    const counts = await t.pool.query(
      `SELECT (SELECT count(*) FROM fulfillment.order_lines)::int AS lines,
              (SELECT count(*) FROM fulfillment.order_holds)::int AS holds,
              (SELECT count(*) FROM fulfillment.order_messages)::int AS messages,
              (SELECT count(*) FROM fulfillment.order_addresses)::int AS addresses`,
    );
    expect(counts.rows[0]).toEqual({ lines: 2, holds: 1, messages: 2, addresses: 4 });
    const line = (await t.pool.query(`SELECT * FROM fulfillment.order_lines WHERE order_number = 'O1'`))
      .rows[0];
    expect(line).toMatchObject({ line_number: '1', component_number: '', unit_price: '12.5' });
  });

  it('re-reads orders a user asks for: unchanged ones write nothing, a released hold replaces the set', async () => {
    const before = await tuplesWritten(t.pool, ORDER_TABLES);
    await requestOrderDetails(t.pool, 'ACC1', ['O1'], 'user');
    expect(await runOrders()).toMatchObject({ unchanged: 1 });
    expect(await tuplesWritten(t.pool, ORDER_TABLES)).toBe(before);
    orders.set('O2', order('O2', 0));
    await requestOrderDetails(t.pool, 'ACC1', ['O2'], 'user');
    expect(await runOrders()).toMatchObject({ updated: 1 });
    const holds = await t.pool.query('SELECT count(*)::int AS n FROM fulfillment.order_holds');
    expect(holds.rows[0].n).toBe(0);
  });
});
