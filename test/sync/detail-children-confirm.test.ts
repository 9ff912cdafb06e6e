import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type {
  OrderDetail,
  OrderDetailLine,
  TransferInDetail,
  TransferInListRow,
} from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { requestOrderDetails } from '../../src/streams/orderRequests.ts';
import { ordersStream } from '../../src/streams/orders.ts';
import { transfersInStream } from '../../src/streams/transfersIn.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { StreamRunResult, Window } from '../../src/sync/types.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { orderHeader } from '../helpers/orderRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * Absence is a claim for a record's children too (issue 24 item 1): a detail answer that omits
 * stored children (an order's hold or lines, an IN's lines) is read again within the run, and only
 * what agreeing answers omit is deleted or announced; answers that never agree leave the children
 * as stored and the next run decides. Answers that drop nothing cost no further call. Scripted
 * upstream (each record answers a queue of scripted answers, then its steady one), real Postgres,
 * real event sink.
 */

const logger = pino({ level: 'silent' });
let t: TestDatabase;
let config: Config;
let now = new Date('2026-06-02T18:00:00Z');
beforeAll(async () => {
  const started = await startSyncDatabase();
  t = started.t;
  // No pause before a further read: the scripted upstream answers at once (the pause is production's).
  config = { ...started.config, vanishConfirm: { ...started.config.vanishConfirm, pauseMs: 0 } };
});
afterAll(() => t?.close());

const query = async <T extends Record<string, unknown>>(sql: string, params: unknown[] = []) =>
  (await t.pool.query<T>(sql, params)).rows;
const sink = () => createEventSink({ timezone: config.timezone, thresholds: config.events });

/** A scripted upstream: per key, answers given once each in order, then the steady answer. */
class Script<T> {
  steady = new Map<string, T>();
  once = new Map<string, T[]>();
  calls: string[] = [];
  answer(key: string): T | undefined {
    this.calls.push(key);
    const next = this.once.get(key)?.shift();
    return structuredClone(next ?? this.steady.get(key));
  }
}

/** The events a run sent (not history) since `mark` (a `seq`), by type. */
async function eventsSince(mark: number): Promise<string[]> {
  const rows = await query<{ type: string }>(
    'SELECT type FROM sync.events WHERE seq > $1 AND NOT suppressed ORDER BY seq',
    [mark],
  );
  return rows.map((r) => r.type);
}
const lastSeq = async () =>
  (await query<{ n: number }>('SELECT coalesce(max(seq), 0)::int AS n FROM sync.events'))[0]?.n ?? 0;

describe('orders: children a detail answer omits', () => {
  const account = 'ACC1';
  const orders = new Script<OrderDetail>();
  const client = {
    getOrderDetail: async (_account: string, orderNumber: string) => ({
      record: orders.answer(orderNumber) ?? null,
      rejected: [],
    }),
  } as unknown as FulfillmentClient;
  const hold = { holdName: 'CREDIT', creationDate: '2026-06-01T11:00:00', isDirectlyReleasable: true };
  const line = (n: number): OrderDetailLine => ({ lineNumber: String(n), sku: `W${n}`, quantityOrdered: n });
  const order = (number: string, over: Partial<OrderDetail> = {}, status = 'SHIPPED'): OrderDetail => ({
    header: orderHeader(number, { orderStatusCode: status }),
    holds: [hold],
    lineItems: [line(1), line(2)],
    ...over,
  });

  /** Names `numbers` (a user's request), then runs the stream: what is due is read. */
  async function run(numbers: readonly string[] = []): Promise<StreamRunResult> {
    await requestOrderDetails(t.pool, account, numbers, 'user');
    orders.calls.length = 0;
    return runStream({
      pool: t.pool,
      client,
      config,
      logger,
      stream: ordersStream,
      scope: { kind: 'account', id: account },
      now,
      eventSink: sink(),
    });
  }
  const stored = async (number: string) => ({
    status: (
      await query<{ s: string }>(
        'SELECT order_status_code AS s FROM fulfillment.orders WHERE order_number = $1',
        [number],
      )
    )[0]?.s,
    holds: (
      await query<{ n: number }>(
        'SELECT count(*)::int AS n FROM fulfillment.order_holds WHERE order_number = $1',
        [number],
      )
    )[0]?.n,
    lines: (
      await query<{ l: string }>(
        'SELECT line_number AS l FROM fulfillment.order_lines WHERE order_number = $1 ORDER BY 1',
        [number],
      )
    ).map((r) => r.l),
  });

  /** Stores `numbers` (their first sight: history) and reads them once more live, unchanged. */
  async function known(numbers: readonly string[]): Promise<void> {
    for (const n of numbers) orders.steady.set(n, order(n));
    expect(await run(numbers)).toMatchObject({ status: 'succeeded' });
    expect(await run(numbers)).toMatchObject({ status: 'succeeded', updated: 0 });
  }

  it('a real release (the hold gone in two reads) is announced once, and only once', async () => {
    await known(['R1']);
    orders.steady.set('R1', order('R1', { holds: [] }));
    const mark = await lastSeq();
    const result = await run(['R1']);
    // The answer omitting the active hold was read again; both agree: the hold was lifted.
    expect(result).toMatchObject({ status: 'succeeded', updated: 1, apiCalls: 2 });
    expect(result.vanishWithheld).toBeUndefined();
    expect(orders.calls).toEqual(['R1', 'R1']);
    expect(await eventsSince(mark)).toEqual(['order.hold_released']);
    expect(await stored('R1')).toMatchObject({ holds: 0, lines: ['1', '2'] });
    // The next read finds it as stored: no further call, no further event.
    expect(await run(['R1'])).toMatchObject({ status: 'succeeded', updated: 0, apiCalls: 1 });
    expect(await eventsSince(mark)).toEqual(['order.hold_released']);
  });

  it('lines dropped from one answer are kept, and the change the answers agree on lands', async () => {
    await known(['L1']);
    orders.steady.set('L1', order('L1', {}, 'DELIVERED'));
    orders.once.set('L1', [order('L1', { lineItems: [] }, 'DELIVERED')]);
    const mark = await lastSeq();
    const result = await run(['L1']);
    expect(result).toMatchObject({ status: 'succeeded', updated: 1, apiCalls: 2 });
    expect(await stored('L1')).toEqual({ status: 'DELIVERED', holds: 1, lines: ['1', '2'] });
    expect(await eventsSince(mark)).toEqual(['order.status_changed']);
  });

  it('answers that never agree keep the children and the order as stored; the next run decides', async () => {
    await known(['W1']);
    // Three reads (FULFILLMENT_VANISH_CONFIRM_READS, 2, further ones): each omits another line.
    const without = (n: number) => order('W1', { lineItems: [line(n === 1 ? 2 : 1)] }, 'DELIVERED');
    orders.once.set('W1', [without(1), without(2), without(1)]);
    orders.steady.set('W1', order('W1', {}, 'DELIVERED'));
    const mark = await lastSeq();
    const result = await run(['W1']);
    expect(orders.calls).toEqual(['W1', 'W1', 'W1']);
    expect(result).toMatchObject({ status: 'succeeded', updated: 0, apiCalls: 3 });
    expect(result.vanishWithheld).toEqual({ answers: 1, rows: 1 });
    expect(await stored('W1')).toEqual({ status: 'SHIPPED', holds: 1, lines: ['1', '2'] });
    expect(await eventsSince(mark)).toEqual([]);
    const logged = await query(
      `SELECT vanish_withheld, details->'childrenWithheld' AS withheld FROM sync.runs
        WHERE stream = 'orders' AND scope = $1 ORDER BY id DESC LIMIT 1`,
      [account],
    );
    expect(logged).toEqual([
      {
        vanish_withheld: 1,
        withheld: [{ recordKey: 'W1', heldRows: 3, keptRows: 1, omittedRows: [1, 1, 1] }],
      },
    ]);
    // Its request stays: the next run reads it again (without being named) and decides.
    const next = await run();
    expect(orders.calls).toEqual(['W1']);
    expect(next).toMatchObject({ status: 'succeeded', updated: 1, apiCalls: 1 });
    expect(await stored('W1')).toEqual({ status: 'DELIVERED', holds: 1, lines: ['1', '2'] });
    expect(await eventsSince(mark)).toEqual(['order.status_changed']);
  });

  it('costs one call per order when nothing is dropped, and one more per answer that drops children', async () => {
    const numbers = Array.from({ length: 20 }, (_, i) => `N${i}`);
    await known(numbers);
    // No change: one call each.
    const unchanged = await run(numbers);
    expect(unchanged).toMatchObject({ status: 'succeeded', updated: 0, apiCalls: 20 });
    expect(orders.calls).toHaveLength(20);
    // Every order changed, none dropped a child: still one call each.
    for (const n of numbers) orders.steady.set(n, order(n, {}, 'DELIVERED'));
    const changed = await run(numbers);
    expect(changed).toMatchObject({ status: 'succeeded', updated: 20, apiCalls: 20 });
    expect(orders.calls).toHaveLength(20);
    // Five answered once without their hold: one further read each, and no release announced.
    const mark = await lastSeq();
    for (const n of numbers.slice(0, 5)) orders.once.set(n, [order(n, { holds: [] }, 'RETURNED')]);
    for (const n of numbers) orders.steady.set(n, order(n, {}, 'RETURNED'));
    const dropped = await run(numbers);
    expect(dropped).toMatchObject({ status: 'succeeded', updated: 20, apiCalls: 25 });
    expect(orders.calls).toHaveLength(25);
    const sent = await eventsSince(mark);
    expect(sent).toHaveLength(20);
    expect(new Set(sent)).toEqual(new Set(['order.status_changed']));
    const holds = await query<{ n: number }>(
      "SELECT count(*)::int AS n FROM fulfillment.order_holds WHERE order_number LIKE 'N%'",
    );
    expect(holds).toEqual([{ n: 20 }]);
  });
});

describe('transfers_in: lines an IN detail omits', () => {
  const supplier = { kind: 'supplier' as const, id: 'SUP1' };
  const windows = (): Window[] => [
    { kind: 'day', start: new Date('2026-06-01T07:00:00Z'), end: new Date('2026-06-10T07:00:00Z') },
  ];
  const list = (status: string): TransferInListRow => ({
    supplierId: 'SUP1',
    rowId: 1,
    orderNumber: 'IN1',
    referenceNumber: 'R1',
    warehouseCode: 'GLW',
    submittedDate: '2026-06-05T10:00:00',
    statusCode: status,
    statusName: status.toLowerCase(),
    lastUpdateDate: '2026-06-05T10:00:00',
  });
  const detail = (status: string, lines = [1, 2]): TransferInDetail => ({
    header: { ...list(status), pickupSitePhone: status },
    lineItems: lines.map((n) => ({ lineNumber: n, sku: `S${n}`, qtyOrdered: 10, qtyReceived: 0 })),
    notes: [],
  });
  let row = list('SUBMITTED');
  const details = new Script<TransferInDetail>();
  const client = {
    listTransfersIn: async () => ({ records: [structuredClone(row)], rejected: [] }),
    getTransferInDetail: async (_s: string, orderNumber: string) => ({
      record: details.answer(orderNumber) ?? null,
      rejected: [],
    }),
  } as unknown as FulfillmentClient;
  const run = () => {
    details.calls.length = 0;
    return runStream({
      pool: t.pool,
      client,
      config,
      logger,
      stream: transfersInStream,
      scope: supplier,
      now,
      windows: windows(),
      eventSink: sink(),
    });
  };
  const stored = async () => ({
    ...(
      await query(
        "SELECT status_code, pickup_site_phone FROM fulfillment.transfers_in WHERE order_number = 'IN1'",
      )
    )[0],
    lines: (
      await query<{ l: number }>(
        "SELECT line_number AS l FROM fulfillment.transfer_in_lines WHERE order_number = 'IN1' ORDER BY 1",
      )
    ).map((r) => r.l),
  });

  it('keeps the lines one answer dropped, and lands what agreeing answers say', async () => {
    details.steady.set('IN1', detail('SUBMITTED'));
    expect(await run()).toMatchObject({ status: 'succeeded', inserted: 1, apiCalls: 2 });
    row = list('PROCESSING');
    details.steady.set('IN1', detail('PROCESSING'));
    details.once.set('IN1', [detail('PROCESSING', [])]);
    const result = await run();
    // One list call, the detail, and its further read.
    expect(result).toMatchObject({ status: 'succeeded', updated: 1, apiCalls: 3 });
    expect(await stored()).toEqual({
      status_code: 'PROCESSING',
      pickup_site_phone: 'PROCESSING',
      lines: [1, 2],
    });
  });

  it('a line gone in two reads is deleted', async () => {
    row = list('RECEIVING');
    details.steady.set('IN1', detail('RECEIVING', [1]));
    expect(await run()).toMatchObject({ status: 'succeeded', updated: 1, apiCalls: 3 });
    expect(await stored()).toMatchObject({ status_code: 'RECEIVING', lines: [1] });
  });

  it('answers that never agree land the list row alone, keep the lines and detail, and ask for the detail again', async () => {
    // Line 2 back (nothing omitted: no further read), then answers that each omit another line.
    row = list('PUTAWAY');
    details.steady.set('IN1', detail('PUTAWAY', [1, 2]));
    expect(await run()).toMatchObject({ status: 'succeeded', updated: 1, apiCalls: 2 });
    row = list('CLOSED');
    const partial = (lines: number[]) => detail('CLOSED', lines);
    details.once.set('IN1', [partial([2]), partial([1]), partial([2])]);
    details.steady.set('IN1', detail('CLOSED'));
    const result = await run();
    expect(details.calls).toEqual(['IN1', 'IN1', 'IN1']);
    expect(result).toMatchObject({
      status: 'succeeded',
      updated: 1,
      vanishWithheld: { answers: 1, rows: 1 },
    });
    // The list row's status landed; the detail columns and lines stayed as stored.
    expect(await stored()).toEqual({ status_code: 'CLOSED', pickup_site_phone: 'PUTAWAY', lines: [1, 2] });
    const requested = await query(
      "SELECT reason FROM sync.detail_requests WHERE stream = 'transfers_in' AND record_key = 'IN1'",
    );
    expect(requested).toEqual([{ reason: 'children-withheld' }]);
    // The next run fetches the detail of the unchanged list row again: now it agrees with what is stored.
    now = new Date(now.getTime() + 60_000);
    expect(await run()).toMatchObject({ status: 'succeeded', updated: 1, apiCalls: 2 });
    expect(await stored()).toEqual({ status_code: 'CLOSED', pickup_site_phone: 'CLOSED', lines: [1, 2] });
    expect(
      await query("SELECT 1 FROM sync.detail_requests WHERE stream = 'transfers_in' AND record_key = 'IN1'"),
    ).toEqual([]);
  });
});
