import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { OwnedInventory } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { inventoryStream, planInventoryWindows } from '../../src/streams/inventory.ts';
import { writeInventoryHistory } from '../../src/streams/inventoryHistory.ts';
import { acquireStreamLease } from '../../src/sync/lease.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';
import { waitFor } from '../helpers/waitFor.ts';

/**
 * Inventory history when clocks disagree: two workers whose clocks are 90 s apart both version the
 * same key (the one ahead first), and a `sync --once` that waited for the lease while the holder
 * wrote. Every version is kept, there is one open version per key, and each names the run that
 * wrote it.
 */

const clocks = { kind: 'supplier' as const, id: 'SUPC' };
const waiter = { kind: 'supplier' as const, id: 'SUPD' };

function row(sku: string, onHand: number): OwnedInventory {
  return {
    warehouseCode: 'GLW',
    warehouseName: 'Glenwillow',
    sku,
    description: `wine ${sku}`,
    providerSku: `P${sku}`,
    subInventoryCode: 'FG',
    subInventoryName: 'Finished goods',
    qtyOnHand: onHand,
    qtyOnOrders: 0,
    qtyOnIns: 0,
    qtyAvailableToSell: onHand,
    qtyAvailableToPromise: onHand,
  };
}

let t: TestDatabase;
let config: Config;
let answer: OwnedInventory[] = [];
const client = {
  listOwnedInventory: async (query: { warehouseCode?: string }) => ({
    records: query.warehouseCode === 'GLW' ? structuredClone(answer) : [],
    rejected: [],
  }),
} as unknown as FulfillmentClient;

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

const run = (options: { now?: Date; logger?: pino.Logger; scope?: typeof clocks } = {}) =>
  runStream({
    pool: t.pool,
    client,
    config,
    logger: options.logger ?? pino({ level: 'silent' }),
    stream: inventoryStream,
    scope: options.scope ?? clocks,
    ...(options.now ? { now: options.now } : {}),
    windows: planInventoryWindows({ now: options.now ?? new Date() }, ['GLW']),
  });

async function history(sku: string, scope = clocks) {
  const res = await t.pool.query(
    `SELECT qty_on_hand, valid_from, valid_to, run_id FROM fulfillment.inventory_history
      WHERE supplier_id = $1 AND sku = $2 ORDER BY valid_from`,
    [scope.id, sku],
  );
  return res.rows as Array<{
    qty_on_hand: number;
    valid_from: Date;
    valid_to: Date | null;
    run_id: string | null;
  }>;
}

describe('inventory history with disagreeing clocks', () => {
  it('versions a change found by a worker whose clock is 90 s behind the one that wrote the open version', async () => {
    const ahead = new Date(Date.now() + 90_000);
    const behind = new Date(ahead.getTime() - 90_000);
    answer = [row('A', 5)];
    const first = await run({ now: ahead });
    expect(first.status).toBe('succeeded');

    answer = [row('A', 7)];
    const second = await run({ now: behind });
    expect(second.error).toBeUndefined();
    expect(second.status).toBe('succeeded');

    const h = await history('A');
    expect(h.map((v) => v.qty_on_hand)).toEqual([5, 7]);
    // The versions stay ordered and contiguous: the new one starts where the open one is closed.
    expect(h[0]!.valid_to).toEqual(h[1]!.valid_from);
    expect(h[1]!.valid_from.getTime()).toBeGreaterThan(h[0]!.valid_from.getTime());
    expect(h[1]!.valid_to).toBeNull();
    // Each version names the run that wrote it (item 9).
    expect(h.map((v) => Number(v.run_id))).toEqual([first.lastRunId, second.lastRunId]);

    // The one behind keeps syncing, run after run.
    answer = [row('A', 8)];
    expect(await run({ now: new Date(behind.getTime() + 1000) })).toMatchObject({ status: 'succeeded' });
    const again = await history('A');
    expect(again.map((v) => v.qty_on_hand)).toEqual([5, 7, 8]);
    expect(again.filter((v) => v.valid_to === null)).toHaveLength(1);
  });

  it('a run that waited for the lease takes its clock once it holds it, after what the holder wrote', async () => {
    answer = [row('B', 1)];
    expect(await run({ scope: waiter })).toMatchObject({ status: 'succeeded' });

    const held = await acquireStreamLease(t.pool, 'inventory', waiter);
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    answer = [row('B', 3)];
    const waiting = run({ logger, scope: waiter });
    await waitFor('the run to wait for the lease', () =>
      lines.some((l) => l.includes('waiting for it to finish')),
    );
    // The holder versions B while the other run waits (as another worker's run would).
    const holderAt = new Date();
    await writeInventoryHistory(t.pool, [{ ...inventoryKey('B'), qty_on_hand: 2 }], holderAt);
    const releasedAt = new Date();
    await held!.release();
    const result = await waiting;
    expect(result.error).toBeUndefined();
    expect(result.status).toBe('succeeded');

    const h = await history('B', waiter);
    expect(h.map((v) => v.qty_on_hand)).toEqual([1, 2, 3]);
    expect(h[2]!.valid_from.getTime()).toBeGreaterThanOrEqual(releasedAt.getTime());
  });
});

function inventoryKey(sku: string) {
  return { supplier_id: waiter.id, warehouse_code: 'GLW', sub_inventory_code: 'FG', sku };
}
