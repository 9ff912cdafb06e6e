import type { Rng } from '../rng.ts';
import type { World } from '../world/state.ts';

/**
 * Warehouse housekeeping: cycle-count adjustments, breakage into DMG, and QA stock released to FG.
 * A QA row released in full is dropped from the owned list, as emptied sub-inventories are upstream.
 */
export function adjustInventory(world: World, rng: Rng, at: number): void {
  const rows = [...world.inventory.values()].filter((r) => r.qtyOnHand > 0 && !r.dropped);
  if (rows.length === 0) return;
  const row = rng.pick(rows);
  const roll = rng.next();
  if (row.subInventoryCode === 'QA') {
    const fg = world.stockRow(row.supplierId, row.warehouseCode, 'FG', row.sku);
    const qty = row.qtyOnHand;
    world.moveStock(at, row, -qty, 'qtyMovedOut');
    world.moveStock(at, fg, qty, 'qtyMovedIn');
    row.dropped = true;
  } else if (roll < 0.5 && row.subInventoryCode === 'FG') {
    const qty = Math.min(row.qtyOnHand, rng.int(1, 2));
    world.moveStock(at, row, -qty, 'qtyDamaged');
    world.moveStock(at, world.stockRow(row.supplierId, row.warehouseCode, 'DMG', row.sku), qty, 'qtyMovedIn');
  } else {
    world.moveStock(at, row, rng.int(-3, 3) || 1, 'qtyAdjusted');
  }
}
