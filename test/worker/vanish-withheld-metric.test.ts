import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { OwnedInventory } from '../../src/api/records/index.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import type { Config } from '../../src/config/types.ts';
import { metricsRegistry } from '../../src/http/metrics.ts';
import type { StreamClient } from '../../src/streams/client.ts';
import { createEngineRunner } from '../../src/worker/engineRunner.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';

/**
 * A withheld vanish is visible: answers that omit much of a scope's stock and never agree leave the
 * rows as stored, and the worker says so in a log line (stream, scope, rows held, each answer's
 * rows), a counter per stream and scope, and the run log's vanish_withheld column.
 */

const METRIC = 'fulfillment_vanish_withheld_total';
const lines: Array<Record<string, unknown>> = [];
const logger = pino(
  { level: 'info' },
  new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')) as Record<string, unknown>);
      done();
    },
  }),
);

let t: TestDatabase;
let config: Config;
beforeAll(async () => {
  t = await createTestDatabase();
  config = loadConfig({ DATABASE_URL: t.url, FULFILLMENT_VANISH_CONFIRM_PAUSE_MS: '5' });
});
afterAll(() => t?.close());

function row(sku: string): OwnedInventory {
  return {
    warehouseCode: 'GLW',
    sku,
    subInventoryCode: 'FG',
    qtyOnHand: 30,
    qtyOnOrders: 0,
    qtyOnIns: 0,
    qtyAvailableToSell: 30,
    qtyAvailableToPromise: 30,
  } as OwnedInventory;
}
const STOCK = Array.from({ length: 12 }, (_, i) => row(`S${i}`));

/** Answers one Inventories/Owned call after the other from `script` (then the whole stock). */
let script: OwnedInventory[][] = [];
const client = {
  listOwnedInventory: async () => ({ records: structuredClone(script.shift() ?? STOCK), rejected: [] }),
} as unknown as StreamClient;

async function withheld(scope: string): Promise<number> {
  const text = await metricsRegistry.metrics();
  const line = text
    .split('\n')
    .find(
      (l) => l.startsWith(`${METRIC}{`) && l.includes(`scope="${scope}"`) && l.includes('stream="inventory"'),
    );
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

describe(METRIC, () => {
  const engine = () => createEngineRunner({ pool: t.pool, client, config, logger });

  it('counts an answer whose shrink no further read confirmed, logs it, and records the rows kept', async () => {
    await engine()({ stream: 'inventory', scope: 'SUPW', mode: 'incremental' });
    lines.length = 0;
    script = [[], STOCK.slice(0, 6), []];
    await engine()({ stream: 'inventory', scope: 'SUPW', mode: 'incremental' });
    expect(await withheld('SUPW')).toBe(1);
    expect(await metricsRegistry.metrics()).toMatch(new RegExp(`^# TYPE ${METRIC} counter$`, 'm'));
    const warning = lines.find((l) => String(l.msg).startsWith('vanish withheld'));
    expect(warning).toMatchObject({
      stream: 'inventory',
      scope: 'SUPW',
      heldRows: 12,
      keptRows: 12,
      answerRows: [0, 6, 0],
    });
    const runs = await t.pool.query<{ vanish_withheld: number }>(
      `SELECT vanish_withheld FROM sync.runs WHERE scope = 'SUPW' ORDER BY id`,
    );
    expect(runs.rows.map((r) => r.vanish_withheld)).toEqual([0, 12]);
    const zeroed = await t.pool.query(
      `SELECT 1 FROM fulfillment.inventory WHERE supplier_id = 'SUPW' AND qty_on_hand = 0`,
    );
    expect(zeroed.rowCount).toBe(0);
  });

  it('counts nothing when the further read restores the answer, nor for a real emptying', async () => {
    await engine()({ stream: 'inventory', scope: 'SUPE', mode: 'incremental' });
    script = [[]];
    await engine()({ stream: 'inventory', scope: 'SUPE', mode: 'incremental' });
    script = [[], []];
    await engine()({ stream: 'inventory', scope: 'SUPE', mode: 'incremental' });
    expect(await withheld('SUPE')).toBe(0);
    const zeroed = await t.pool.query(
      `SELECT 1 FROM fulfillment.inventory WHERE supplier_id = 'SUPE' AND qty_on_hand = 0`,
    );
    expect(zeroed.rowCount).toBe(12);
  });
});
