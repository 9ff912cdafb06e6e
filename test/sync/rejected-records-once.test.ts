import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { Invoice, OwnedInventory } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { inventoryStream, planInventoryWindows } from '../../src/streams/inventory.ts';
import { invoicesStream } from '../../src/streams/invoices.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * A bad record that stays upstream is re-read on every run. Its row in sync.rejected_records is
 * found again by (kind, key, reason), whatever else of the record moved, so the table holds one
 * row per problem, counted, with the latest form of the record and the run that last saw it.
 */

const logger = pino({ level: 'silent' });
const supplier = { kind: 'supplier' as const, id: 'SUPR' };
const account = { kind: 'account' as const, id: 'ACCR' };

let t: TestDatabase;
let config: Config;
beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

function inventoryRow(sku: string, onHand: number, onOrders: number): OwnedInventory {
  return {
    warehouseCode: 'GLW',
    sku,
    subInventoryCode: 'FG',
    qtyOnHand: onHand,
    qtyOnOrders: onOrders,
    qtyOnIns: 0,
    qtyAvailableToSell: onHand - onOrders,
    qtyAvailableToPromise: onHand - onOrders,
  } as OwnedInventory;
}

type Answer<T> = { records: T[]; rejected: { index: number; reason: string; raw: unknown }[] };

async function rejectedRows(stream: string) {
  return (
    await t.pool.query(
      `SELECT kind, record_key, reason, raw, occurrences, run_id,
              (SELECT max(id) FROM sync.runs WHERE stream = $1)::bigint AS last_run
         FROM sync.rejected_records WHERE stream = $1 ORDER BY id`,
      [stream],
    )
  ).rows;
}

describe('a bad record re-read on every run', () => {
  it('is one row however its other fields move: counted, with its latest raw and run', async () => {
    let answer: Answer<OwnedInventory> = { records: [], rejected: [] };
    const client = {
      listOwnedInventory: async () => structuredClone(answer),
    } as unknown as FulfillmentClient;
    const runs = 5;
    for (let i = 0; i < runs; i++) {
      // B's quantity is a string (the client rejects the row); its other quantities move each run.
      answer = {
        records: [inventoryRow('A', 5 + i, 1)],
        rejected: [
          {
            index: 1,
            reason: 'qtyOnHand: Invalid input: expected number, received string',
            raw: { ...inventoryRow('B', 3, i), qtyOnHand: 'three' },
          },
        ],
      };
      const result = await runStream({
        pool: t.pool,
        client,
        config,
        logger,
        stream: inventoryStream,
        scope: supplier,
        windows: planInventoryWindows({ now: new Date() }, ['GLW']),
      });
      expect(result).toMatchObject({ status: 'partial', rejected: 1 });
    }
    const rows = await rejectedRows('inventory');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      kind: 'quarantined',
      record_key: 'SUPR/GLW/FG/B',
      reason: 'qtyOnHand: Invalid input: expected number, received string',
      occurrences: runs,
      raw: { sku: 'B', qtyOnHand: 'three', qtyOnOrders: runs - 1 },
    });
    expect(rows[0].run_id).toBe(rows[0].last_run);
  });

  it('is one row when its reason quotes a value that moves; the latest reason is kept', async () => {
    let orderCount = 3_000_000_000;
    const invoice = (): Invoice =>
      ({
        invoiceNumber: 'INV-BIG',
        accountNumber: account.id,
        invoiceDate: '2026-06-01',
        orderCount,
        balanceDue: 10,
      }) as Invoice;
    const client = {
      listInvoices: async () => ({ records: [invoice()], rejected: [] }),
    } as unknown as FulfillmentClient;
    const window = {
      kind: 'day' as const,
      start: new Date('2026-06-01T00:00:00Z'),
      end: new Date('2026-06-02T00:00:00Z'),
    };
    for (let i = 0; i < 3; i++) {
      orderCount += 1;
      const result = await runStream({
        pool: t.pool,
        client,
        config,
        logger,
        stream: invoicesStream,
        scope: account,
        windows: [window],
      });
      expect(result).toMatchObject({ status: 'partial', rejected: 1 });
    }
    const rows = await rejectedRows('invoices');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      record_key: 'INV-BIG',
      reason: `order_count is outside the 32-bit integer range (${orderCount})`,
      occurrences: 3,
    });
  });

  it('without a readable key, is told apart by the record itself', async () => {
    let answer: Answer<OwnedInventory> = { records: [], rejected: [] };
    const client = {
      listOwnedInventory: async () => structuredClone(answer),
    } as unknown as FulfillmentClient;
    const scope = { kind: 'supplier' as const, id: 'SUPN' };
    for (const garbage of ['x', 'y', 'x']) {
      answer = {
        records: [inventoryRow('A', 5, 1)],
        rejected: [{ index: 1, reason: 'sku: Invalid input', raw: { garbage } }],
      };
      await runStream({
        pool: t.pool,
        client,
        config,
        logger,
        stream: inventoryStream,
        scope,
        windows: planInventoryWindows({ now: new Date() }, ['GLW']),
      });
    }
    const rows = (
      await t.pool.query(
        `SELECT record_key, raw, occurrences FROM sync.rejected_records WHERE scope = $1 ORDER BY id`,
        [scope.id],
      )
    ).rows;
    expect(rows).toEqual([
      { record_key: null, raw: { garbage: 'x' }, occurrences: 2 },
      { record_key: null, raw: { garbage: 'y' }, occurrences: 1 },
    ]);
  });
});
