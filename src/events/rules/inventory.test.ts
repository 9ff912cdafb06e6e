import { describe, expect, it } from 'vitest';
import type { OwnedInventory } from '../../api/records/index.ts';
import { deriveEvents } from '../derive.ts';
import { testContext } from '../testContext.ts';

const ctx = testContext();
const row = (qtyAvailableToSell: number, sku = 'WINE1'): OwnedInventory => ({
  warehouseCode: 'GLW',
  subInventoryCode: 'MAIN',
  sku,
  qtyOnHand: qtyAvailableToSell + 1,
  qtyAvailableToSell,
});
const types = (prev: OwnedInventory | null, cur: OwnedInventory, c = ctx) =>
  deriveEvents('inventory', prev, cur, c).map((e) => e.type);

describe('inventory rule', () => {
  it('emits nothing for unchanged quantities, even when other fields change', () => {
    expect(types(row(20), row(20))).toEqual([]);
    expect(types(row(20), { ...row(20), description: 'renamed' })).toEqual([]);
  });

  it('emits changed, keyed by scope, warehouse, sub-inventory and sku', () => {
    const [event] = deriveEvents('inventory', row(20), row(15), ctx);
    expect(event?.type).toBe('inventory.changed');
    expect(event?.subject.key).toBe('SUP1:GLW:MAIN:WINE1');
    expect(event?.data.changes).toContainEqual({ field: 'qtyAvailableToSell', from: 20, to: 15 });
  });

  it('emits low_stock when crossing below the default threshold, once', () => {
    expect(types(row(12), row(9))).toEqual(['inventory.changed', 'inventory.low_stock']);
    expect(types(row(9), row(5))).toEqual(['inventory.changed']);
  });

  it('uses the per-SKU threshold', () => {
    expect(types(row(5, 'RARE'), row(3, 'RARE'))).toEqual(['inventory.changed']);
    expect(types(row(3, 'RARE'), row(1, 'RARE'))).toEqual(['inventory.changed', 'inventory.low_stock']);
  });

  it('emits out_of_stock when reaching 0 (a vanished row arrives zeroed) and restocked when rising from 0', () => {
    expect(types(row(5), row(0))).toEqual(['inventory.changed', 'inventory.out_of_stock']);
    expect(types(row(30), row(0))).toEqual([
      'inventory.changed',
      'inventory.low_stock',
      'inventory.out_of_stock',
    ]);
    expect(types(row(0), row(4))).toEqual(['inventory.changed', 'inventory.restocked']);
  });

  it('treats a first-seen row as a change from nothing, with its stock state', () => {
    expect(types(null, row(50))).toEqual(['inventory.changed']);
    expect(types(null, row(0))).toEqual([
      'inventory.changed',
      'inventory.low_stock',
      'inventory.out_of_stock',
    ]);
  });

  it('keeps the same id on a repeat of the same detection and a new one on another day', () => {
    const a = deriveEvents('inventory', row(5), row(0), ctx);
    const b = deriveEvents('inventory', row(5), row(0), ctx);
    const later = deriveEvents(
      'inventory',
      row(5),
      row(0),
      testContext({ detectedAt: new Date('2026-03-05T00:00:00Z') }),
    );
    expect(b.map((e) => e.id)).toEqual(a.map((e) => e.id));
    expect(later[1]?.id).not.toBe(a[1]?.id);
  });
});
