import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnedInventory } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { metricsRegistry } from '../../src/http/metrics.ts';
import type { StreamClient } from '../../src/streams/client.ts';
import { createEngineRunner } from '../../src/worker/engineRunner.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * A snapshot with a rejected row whose key cannot be read cannot tell which stored row it is, so
 * its vanish detection is suspended: rows that truly vanished are not zeroed until a snapshot
 * without such a row passes. Besides the run's warning, operators see it as a counter per stream
 * and scope, so a row that stays broken upstream cannot silently switch vanishing off for good.
 */

const logger = pino({ level: 'silent' });
const METRIC = 'fulfillment_sync_vanish_checks_skipped_total';

let t: TestDatabase;
let config: Config;
beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

function row(sku: string): OwnedInventory {
  return {
    warehouseCode: 'GLW',
    sku,
    subInventoryCode: 'FG',
    qtyOnHand: 5,
    qtyOnOrders: 0,
    qtyOnIns: 0,
    qtyAvailableToSell: 5,
    qtyAvailableToPromise: 5,
  } as OwnedInventory;
}

let rejectedRaw: unknown;
const client = {
  listOwnedInventory: async () => ({
    records: [row('A')],
    rejected: rejectedRaw === undefined ? [] : [{ index: 1, reason: 'sku: Invalid input', raw: rejectedRaw }],
  }),
} as unknown as StreamClient;

/** The counter's value for one stream and scope in the exposition (0 when absent). */
async function skipped(scope: string): Promise<number> {
  const text = await metricsRegistry.metrics();
  const line = text
    .split('\n')
    .find(
      (l) => l.startsWith(`${METRIC}{`) && l.includes(`stream="inventory"`) && l.includes(`scope="${scope}"`),
    );
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe(METRIC, () => {
  const engine = () => createEngineRunner({ pool: t.pool, client, config, logger });

  it('counts each snapshot whose vanish detection was suspended, by stream and scope', async () => {
    rejectedRaw = { warehouseCode: 'GLW', qtyOnHand: 'x' }; // no SKU: names no stored row
    await engine()({ stream: 'inventory', scope: 'SUPV', mode: 'incremental' });
    await engine()({ stream: 'inventory', scope: 'SUPV', mode: 'incremental' });
    expect(await skipped('SUPV')).toBe(2);
    expect(await metricsRegistry.metrics()).toMatch(new RegExp(`^# TYPE ${METRIC} counter$`, 'm'));
  });

  it('does not count a snapshot whose rejected row names its key, nor one without rejected rows', async () => {
    rejectedRaw = { ...row('B'), qtyOnHand: 'x' };
    await engine()({ stream: 'inventory', scope: 'SUPK', mode: 'incremental' });
    rejectedRaw = undefined;
    await engine()({ stream: 'inventory', scope: 'SUPK', mode: 'incremental' });
    expect(await skipped('SUPK')).toBe(0);
  });
});
