import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { Window } from '../../src/sync/types.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { shipmentHeader } from '../helpers/shipmentRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/** FULFILLMENT_AMBIGUOUS_TIME reaches what a sync stores: an offset-less ship date in the repeated hour. */

const logger = pino({ level: 'silent' });
const window: Window = {
  kind: 'minute',
  start: new Date('2026-11-01T08:00:00Z'),
  end: new Date('2026-11-01T10:00:00Z'),
};

let t: TestDatabase;
beforeAll(async () => {
  ({ t } = await startSyncDatabase());
});
afterAll(() => t?.close());

/** An upstream answering one shipment, shipped at 01:30 without an offset. */
const clientShipping = (containerId: string) =>
  ({
    listShipmentUpdates: async () => ({
      records: [{ header: { ...shipmentHeader(containerId), shipDate: '2026-11-01T01:30:00' } }],
      rejected: [],
      repaired: [],
    }),
  }) as unknown as FulfillmentClient;

describe('the repeated hour in the warehouse', () => {
  it.each([
    ['later', '2026-11-01T09:30:00.000Z'],
    ['earlier', '2026-11-01T08:30:00.000Z'],
  ])('FULFILLMENT_AMBIGUOUS_TIME=%s stores 01:30 as %s', async (setting, instant) => {
    const config = loadConfig({ DATABASE_URL: t.url, FULFILLMENT_AMBIGUOUS_TIME: setting });
    const scope = { kind: 'account' as const, id: `ACC-${setting}` };
    const result = await runStream({
      pool: t.pool,
      client: clientShipping(`AMB-${setting}`),
      config,
      logger,
      stream: shipmentsStream,
      scope,
      windows: [window],
    });
    expect(result.status).toBe('succeeded');
    const stored = await t.pool.query('SELECT ship_date FROM fulfillment.shipments WHERE container_id = $1', [
      `AMB-${setting}`,
    ]);
    expect((stored.rows[0].ship_date as Date).toISOString()).toBe(instant);
  });
});
