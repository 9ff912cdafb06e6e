import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.ts';
import type { Config } from '../../src/config/types.ts';
import { inventoryStream } from '../../src/streams/inventory.ts';
import { inventoryActivityStream } from '../../src/streams/inventoryActivity.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { StreamRunResult } from '../../src/sync/types.ts';
import { type RewritingProxy, rewriteTimes, startRewritingProxy } from '../helpers/rewritingProxy.ts';
import {
  SIMULATOR_TOKEN,
  type SyncHarness,
  simulatorClient,
  startSyncHarness,
} from '../helpers/syncHarness.ts';
import { warehouseMismatches } from '../helpers/warehouseTruth.ts';

/**
 * A scope split because it outgrew the row cap remembers the split that worked (issue 25): a
 * supplier whose whole stock (39 rows) and whose main warehouse (GLW, 33 rows) exceed a cap of 25
 * costs every run the whole call that comes back too large, one call per warehouse the API knows
 * (most of them empty) and the GLW call that comes back too large, before the three GLW
 * sub-inventory calls that fit. The next run starts from the parts that worked, asks only the
 * warehouses known to hold the supplier's stock, and still converges to the truth; once answers stay
 * small it asks the whole scope again. An upstream silently cutting at the cap, like a real one.
 */

const logger = pino({ level: 'silent' });
const CAP = 25;
let s: SyncHarness;
let proxy: RewritingProxy;
let supplier: string;

beforeAll(async () => {
  s = await startSyncHarness(
    {
      seed: 11,
      start: new Date('2026-03-02T08:00:00Z'),
      volume: { suppliers: 1, winesPerSupplier: 20, stockWarehouse: 'GLW', historyDays: 3 },
      rowCap: CAP,
      rowCapMode: 'truncate',
    },
    { FULFILLMENT_MAX_ROWS_PER_WINDOW: String(CAP), FULFILLMENT_VANISH_CONFIRM_PAUSE_MS: '10' },
  );
  proxy = await startRewritingProxy(s.sim.url);
  supplier = s.sim.truth().suppliers[0] as string;
  // The activity of the last days names the sub-inventories a warehouse too large to read whole
  // holds (inventoryParts.ts): as in production, where it runs beside inventory.
  const activity = await runStream({
    pool: s.t.pool,
    client: s.client,
    config: s.config,
    logger,
    stream: inventoryActivityStream,
    scope: { kind: 'supplier', id: supplier },
    now: new Date(s.sim.clock.now()),
  });
  expect(activity.status).toBe('succeeded');
});
afterAll(async () => {
  await proxy?.close();
  await s?.close();
});

async function run(config: Config = s.config): Promise<StreamRunResult & { asked: string[] }> {
  const from = proxy.calls.length;
  const result = await runStream({
    pool: s.t.pool,
    client: simulatorClient({ ...s.sim, url: proxy.url }, config),
    config,
    logger,
    stream: inventoryStream,
    scope: { kind: 'supplier', id: supplier },
    now: new Date(s.sim.clock.now()),
  });
  const asked = proxy.calls.slice(from).filter((c) => c.includes('/Inventories/Owned'));
  return { ...result, asked };
}

describe('a split that worked is remembered', () => {
  it('the scope is larger than the cap, and so is its main warehouse, but not its sub-inventories', () => {
    const rows = s.sim.truth().ownedInventory[supplier] ?? [];
    expect(rows.length).toBeGreaterThan(CAP);
    expect(rows.filter((r) => r.warehouseCode === 'GLW').length).toBeGreaterThan(CAP);
  });

  it('the second run starts from the parts that worked: fewer calls, the same truth', async () => {
    const first = await run();
    expect(first.status).toBe('succeeded');
    // A second discovery run on the unfixed code; the first one that starts from memory now.
    const second = await run();
    expect(second.status).toBe('succeeded');
    expect(second.asked).toHaveLength(second.apiCalls);
    expect(await warehouseMismatches(s.t.pool, s.sim.truth(), { streams: ['inventory'] })).toEqual([]);
    expect({ first: first.apiCalls, second: second.apiCalls }).toMatchObject({ first: 12 });
    // GLW's three sub-inventories and the two other warehouses holding stock: no call that comes
    // back too large, no call for a warehouse where the supplier has nothing.
    expect(second.apiCalls).toBe(5);
    const third = await run();
    expect(third).toMatchObject({ status: 'succeeded', apiCalls: 5, updated: 0, inserted: 0 });
  });

  it('a part answered empty once is a shrink of that part: read again, nothing vanishes', async () => {
    const zeroed = async () =>
      (
        await s.t.pool.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM fulfillment.inventory WHERE supplier_id = $1 AND vanished_at IS NOT NULL',
          [supplier],
        )
      ).rows[0]?.n;
    const before = await zeroed();
    proxy.rewrite = rewriteTimes(
      1,
      (url) =>
        url.searchParams.get('warehouseCode') === 'GLW' && url.searchParams.get('subInventoryCode') === 'FG',
      (body) => ({ ...body, payload: [] }),
    );
    const result = await run();
    proxy.rewrite = undefined;
    expect(proxy.rewritten.length).toBeGreaterThan(0);
    expect(result).toMatchObject({ status: 'succeeded', apiCalls: 6, updated: 0 });
    expect(await zeroed()).toBe(before);
  });

  it('a change inside a remembered part is read as usual', async () => {
    s.sim.advance(24 * 60);
    const changed = await run();
    expect(changed.status).toBe('succeeded');
    expect(await warehouseMismatches(s.t.pool, s.sim.truth(), { streams: ['inventory'] })).toEqual([]);
  });

  it('answers that stay well under the cap grow back to one call for the whole scope', async () => {
    s.sim.setRowCap(undefined);
    const roomy = loadConfig({
      DATABASE_URL: s.t.url,
      FULFILLMENT_API_URL: s.sim.url,
      FULFILLMENT_API_TOKEN: SIMULATOR_TOKEN,
      FULFILLMENT_MAX_ROWS_PER_WINDOW: '1000',
    });
    // This run still starts from the parts (they answer far less than half the new cap)...
    const remembered = await run(roomy);
    expect(remembered.status).toBe('succeeded');
    expect(remembered.apiCalls).toBeGreaterThan(1);
    // ...so the next asks the whole scope again.
    const whole = await run(roomy);
    expect(whole).toMatchObject({ status: 'succeeded', apiCalls: 1, updated: 0 });
    expect(whole.asked[0]).not.toContain('warehouseCode');
    expect(await warehouseMismatches(s.t.pool, s.sim.truth(), { streams: ['inventory'] })).toEqual([]);
  });
});
