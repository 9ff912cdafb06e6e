import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { ReturnsQuery } from '../../src/api/params.ts';
import type { ShipmentReturn } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { returnsStream } from '../../src/streams/returns.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/** Open returns without an order number are still followed once they leave the status lists. */

const warnings: Array<Record<string, unknown>> = [];
const logger = pino(
  { level: 'warn' },
  { write: (line: string) => warnings.push(JSON.parse(line) as Record<string, unknown>) },
);
const account = { kind: 'account' as const, id: 'ACC1' };
const now = new Date('2026-06-01T18:00:00Z');

// Returned long ago: beyond the day re-reads, only the open-status lists (and look-ups) see them.
const aReturn = (id: number, trackingNumber: string | null, status: string): ShipmentReturn => ({
  shipReturnId: id,
  orderNumber: null,
  trackingNumber,
  processingStatusCode: status,
  returnDate: '2026-03-01T10:00:00',
});

let t: TestDatabase;
let config: Config;
const upstream = new Map<number, ShipmentReturn>();
const lookups: ReturnsQuery[] = [];
const client = {
  listReturns: async (query: ReturnsQuery) => {
    if (query.orderNumber || query.trackingNumber) lookups.push(query);
    const all = [...upstream.values()].map((r) => structuredClone(r));
    const records = query.statusCode
      ? all.filter((r) => r.processingStatusCode === query.statusCode)
      : query.trackingNumber
        ? all.filter((r) => r.trackingNumber === query.trackingNumber)
        : query.orderNumber
          ? all.filter((r) => r.orderNumber === query.orderNumber)
          : []; // day windows: nothing returned in the last 30 days
    return { records, rejected: [] };
  },
} as unknown as FulfillmentClient;

const runReturns = () =>
  runStream({ pool: t.pool, client, config, logger, stream: returnsStream, scope: account, now });
const status = async (id: number) =>
  (
    await t.pool.query('SELECT processing_status_code FROM fulfillment.returns WHERE ship_return_id = $1', [
      id,
    ])
  ).rows[0]?.processing_status_code;

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

describe('open returns without order number', () => {
  it('are re-read by tracking number when they resolve; ones with neither key are counted in a warning', async () => {
    upstream.set(1, aReturn(1, 'TRK1', 'NEW'));
    upstream.set(2, aReturn(2, null, 'NEW'));
    expect(await runReturns()).toMatchObject({ status: 'succeeded' });
    expect(await status(1)).toBe('NEW');
    expect(await status(2)).toBe('NEW');

    upstream.set(1, aReturn(1, 'TRK1', 'RESOLVED'));
    upstream.set(2, aReturn(2, null, 'RESOLVED'));
    lookups.length = 0;
    warnings.length = 0;
    expect(await runReturns()).toMatchObject({ status: 'succeeded' });
    expect(lookups).toEqual([{ accountNumber: 'ACC1', trackingNumber: 'TRK1' }]);
    expect(await status(1)).toBe('RESOLVED');
    // No key to look it up by: it stays open, and that is said, not silent.
    expect(await status(2)).toBe('NEW');
    const warning = warnings.find((w) => w.unfollowableReturns !== undefined);
    expect(warning).toMatchObject({ unfollowableReturns: 1, shipReturnIds: ['2'] });
  });
});
