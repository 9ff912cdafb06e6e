import type { z } from 'zod';
import { int, keyText, record, text } from './primitives.ts';

/** Owned inventory row (spec 2.8). */
export const ownedInventorySchema = record({
  warehouseCode: text(),
  warehouseName: text(),
  sku: keyText(),
  description: text(),
  providerSku: text(),
  subInventoryCode: text(),
  subInventoryName: text(),
  qtyOnHand: int(),
  qtyOnOrders: int(),
  qtyOnIns: int(),
  qtyAvailableToSell: int(),
  qtyAvailableToPromise: int(),
});

/** Inventory activity row (spec 2.8). */
export const inventoryActivitySchema = record({
  supplierId: text(),
  accountNumber: text(),
  warehouseCode: text(),
  warehouseName: text(),
  subInventoryCode: text(),
  subInventoryName: text(),
  sku: keyText(),
  description: text(),
  providerSku: text(),
  skuType: text(),
  beginningOnHand: int(),
  endingOnHand: int(),
  qtyReceived: int(),
  qtyTransferredIn: int(),
  qtyTransferredOut: int(),
  qtyMovedIn: int(),
  qtyMovedOut: int(),
  qtyShipped: int(),
  qtyAdjusted: int(),
  qtyDamaged: int(),
  qtyReturned: int(),
  qtyKitted: int(),
  qtyOther: int(),
});

export type OwnedInventory = z.infer<typeof ownedInventorySchema>;
export type InventoryActivity = z.infer<typeof inventoryActivitySchema>;
