import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { OrderDetail } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { requestOrderDetails } from '../../src/streams/orderRequests.ts';
import { ordersStream } from '../../src/streams/orders.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { orderHeader } from '../helpers/orderRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * An absence is a claim (issue 24 item 1): an order detail answered once without its holds (a
 * lagging replica, a cold cache: `holds: []`) must not announce that an active hold was released.
 * On main the orders rule takes every active hold the answer omits as lifted: one partial answer
 * sends `order.hold_released` to subscribers, and when the next answer lists the hold again no
 * `hold_added` follows (its event id was used at the first sight), so they are left believing the
 * order is free to ship. Scripted upstream, real Postgres, real event sink.
 */

const logger = pino({ level: 'silent' });
let t: TestDatabase;
let config: Config;
beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

const hold = { holdName: 'CREDIT', creationDate: '2026-06-01T11:00:00', isDirectlyReleasable: true };
const full = (): OrderDetail => ({
  header: orderHeader('O1', { orderStatusCode: 'SHIPPED', hasInventoryHold: true }),
  holds: [hold],
});
const answer = full();
/**
 * Answers given once each before `answer`: the lagging replica's one short answer. (The reviewer's
 * stub answered short to every call of that run; once the sync reads a shrinking answer again
 * within the run, that is the hold gone in two reads, a real release: holdRelease.test.ts.)
 */
const once: OrderDetail[] = [];
const client = {
  getOrderDetail: async () => ({ record: structuredClone(once.shift() ?? answer), rejected: [] }),
} as unknown as FulfillmentClient;

async function run() {
  await requestOrderDetails(t.pool, 'ACC1', ['O1'], 'user');
  return runStream({
    pool: t.pool,
    client,
    config,
    logger,
    stream: ordersStream,
    scope: { kind: 'account', id: 'ACC1' },
    now: new Date('2026-06-02T18:00:00Z'),
    eventSink: createEventSink({ timezone: config.timezone, thresholds: config.events }),
  });
}

async function sentEvents(): Promise<string[]> {
  const { rows } = await t.pool.query<{ type: string }>(
    'SELECT type FROM sync.events WHERE NOT suppressed ORDER BY seq',
  );
  return rows.map((r) => r.type);
}

describe('an order detail answered once without its holds', () => {
  it('announces no hold_released, and the hold stays active', async () => {
    // The first sight (its events are history), then a live read: the order's hold is known.
    expect(await run()).toMatchObject({ status: 'succeeded' });
    expect(await run()).toMatchObject({ status: 'succeeded', updated: 0 });
    const before = await sentEvents();
    once.push({ ...full(), holds: [] });
    expect(await run()).toMatchObject({ status: 'succeeded' });
    expect(once).toHaveLength(0);
    expect(await run()).toMatchObject({ status: 'succeeded' });
    expect(await sentEvents()).toEqual(before);
    const stored = await t.pool.query('SELECT count(*)::int AS n FROM fulfillment.order_holds');
    expect(stored.rows[0]).toEqual({ n: 1 });
  });
});
