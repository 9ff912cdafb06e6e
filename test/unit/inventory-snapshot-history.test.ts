import { describe, expect, it } from 'vitest';
import { planInventoryWindows, snapshotWhere, zeroVanished } from '../../src/streams/inventory.ts';
import { planHistory } from '../../src/streams/inventoryHistory.ts';

const at = new Date('2026-03-01T10:00:00Z');
const stored = {
  supplier_id: 'S1',
  warehouse_code: 'GLW',
  sub_inventory_code: 'MAIN',
  sku: 'A',
  qty_on_hand: 5,
  qty_on_orders: 1,
  qty_on_ins: 0,
  qty_available_to_sell: 4,
  qty_available_to_promise: 4,
  vanished_at: null,
  synced_at: new Date(0),
};

describe('inventory windows', () => {
  it("plans one snapshot of the supplier's whole inventory, moving no cursor, or one per listed warehouse", () => {
    const [whole, ...more] = planInventoryWindows({ now: at });
    expect(more).toEqual([]);
    expect(whole).toMatchObject({ kind: 'snapshot' });
    expect(whole?.filter).toBeUndefined();
    expect(whole?.advanceTo).toBeUndefined();
    expect(snapshotWhere({ kind: 'supplier', id: 'S1' }, whole!)).toEqual({ supplier_id: 'S1' });
    const listed = planInventoryWindows({ now: at }, ['GLW', 'PSO']);
    expect(listed.map((w) => w.filter?.warehouseCode)).toEqual(['GLW', 'PSO']);
  });

  it('scopes the snapshot to the supplier and the window warehouse', () => {
    const [w] = planInventoryWindows({ now: at }, ['PSO']);
    expect(snapshotWhere({ kind: 'supplier', id: 'S1' }, w!)).toEqual({
      supplier_id: 'S1',
      warehouse_code: 'PSO',
    });
    const finest = { ...w!, filter: { warehouseCode: 'PSO', subInventoryCode: 'FG', sku: 'W1' } };
    expect(snapshotWhere({ kind: 'supplier', id: 'S1' }, finest)).toEqual({
      supplier_id: 'S1',
      warehouse_code: 'PSO',
      sub_inventory_code: 'FG',
      sku: 'W1',
    });
  });
});

describe('zeroVanished', () => {
  it('zeroes every quantity and stamps vanished_at', () => {
    const row = zeroVanished(stored, at);
    expect(row).toMatchObject({ qty_on_hand: 0, qty_on_orders: 0, qty_on_ins: 0, qty_available_to_sell: 0 });
    expect(row.qty_available_to_promise).toBe(0);
    expect(row.vanished_at).toEqual(at);
    expect(row.sku).toBe('A');
    expect('synced_at' in row).toBe(false);
  });

  it('returns an already vanished row unchanged, so a re-sync writes nothing', () => {
    const once = zeroVanished(stored, at);
    const twice = zeroVanished({ ...once, synced_at: new Date() }, new Date(at.getTime() + 60_000));
    expect(twice.vanished_at).toEqual(at);
  });
});

describe('planHistory', () => {
  const columns = ['supplier_id', 'warehouse_code', 'sub_inventory_code', 'sku', 'qty_on_hand'];
  it('closes and opens one version per changed key, at the detection time', () => {
    const plan = planHistory([{ ...stored, qty_on_hand: 7 }], at, columns);
    expect(plan.close).toEqual([
      { supplier_id: 'S1', warehouse_code: 'GLW', sub_inventory_code: 'MAIN', sku: 'A' },
    ]);
    expect(plan.open).toEqual([
      {
        supplier_id: 'S1',
        warehouse_code: 'GLW',
        sub_inventory_code: 'MAIN',
        sku: 'A',
        qty_on_hand: 7,
        valid_from: at,
        valid_to: null,
      },
    ]);
  });

  it('keeps the last write of a key and stores null key parts as empty text', () => {
    const plan = planHistory(
      [
        { ...stored, qty_on_hand: 1 },
        { ...stored, qty_on_hand: 2 },
        { ...stored, sub_inventory_code: null, qty_on_hand: 3 },
      ],
      at,
      columns,
    );
    expect(plan.open.map((r) => r.qty_on_hand)).toEqual([2, 3]);
    expect(plan.open[1]?.sub_inventory_code).toBe('');
  });
});
