import type { InventoryActivity, OwnedInventory } from '../../api/records/index.ts';
import type { ActivityRow, InventoryRow } from '../types.ts';
import type { World } from '../world/state.ts';
import { SUB_INVENTORIES, WAREHOUSES } from '../world/warehouses.ts';

/** An owned-inventory row. */
export function ownedInventoryRecord(world: World, r: InventoryRow): OwnedInventory {
  const product = world.products.get(`${r.supplierId}|${r.sku}`);
  const available = Math.max(0, r.qtyOnHand - r.qtyOnOrders);
  return {
    warehouseCode: r.warehouseCode,
    warehouseName: WAREHOUSES[r.warehouseCode] ?? null,
    sku: r.sku,
    description: product?.description ?? null,
    providerSku: product?.providerSku ?? null,
    subInventoryCode: r.subInventoryCode,
    subInventoryName: SUB_INVENTORIES[r.subInventoryCode] ?? null,
    qtyOnHand: r.qtyOnHand,
    qtyOnOrders: r.qtyOnOrders,
    qtyOnIns: r.qtyOnIns,
    qtyAvailableToSell: r.subInventoryCode === 'FG' ? available : 0,
    qtyAvailableToPromise: r.subInventoryCode === 'FG' ? available + r.qtyOnIns : 0,
  };
}

/** An inventory-activity row of one day; `row` supplies identity when the day had no activity. */
export function activityRecord(
  world: World,
  row: InventoryRow,
  a: ActivityRow | undefined,
): InventoryActivity {
  const product = world.products.get(`${row.supplierId}|${row.sku}`);
  const supplier = world.suppliers.find((s) => s.id === row.supplierId);
  const c = a?.counts;
  return {
    supplierId: row.supplierId,
    accountNumber: supplier?.accountNumber ?? null,
    warehouseCode: row.warehouseCode,
    warehouseName: WAREHOUSES[row.warehouseCode] ?? null,
    subInventoryCode: row.subInventoryCode,
    subInventoryName: SUB_INVENTORIES[row.subInventoryCode] ?? null,
    sku: row.sku,
    description: product?.description ?? null,
    providerSku: product?.providerSku ?? null,
    skuType: product?.itemTypeCode ?? null,
    beginningOnHand: a?.beginningOnHand ?? row.qtyOnHand,
    endingOnHand: a?.endingOnHand ?? row.qtyOnHand,
    qtyReceived: c?.qtyReceived ?? 0,
    qtyTransferredIn: c?.qtyTransferredIn ?? 0,
    qtyTransferredOut: c?.qtyTransferredOut ?? 0,
    qtyMovedIn: c?.qtyMovedIn ?? 0,
    qtyMovedOut: c?.qtyMovedOut ?? 0,
    qtyShipped: c?.qtyShipped ?? 0,
    qtyAdjusted: c?.qtyAdjusted ?? 0,
    qtyDamaged: c?.qtyDamaged ?? 0,
    qtyReturned: c?.qtyReturned ?? 0,
    qtyKitted: c?.qtyKitted ?? 0,
    qtyOther: c?.qtyOther ?? 0,
  };
}
