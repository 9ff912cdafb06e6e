import { date, index, integer, primaryKey, text } from 'drizzle-orm/pg-core';
import { contentHash, fulfillmentSchema, keyText, raw, syncedAt } from './columns.ts';

/** Inventory activity (spec 2.8), one row per supplier x day x warehouse x sub-inventory x SKU. */
export const inventoryActivity = fulfillmentSchema.table(
  'inventory_activity',
  {
    supplierId: keyText('supplier_id'),
    /** The (Pacific) day the activity covers: the one-day window of the call that returned it. */
    activityDate: date('activity_date', { mode: 'string' }).notNull(),
    warehouseCode: keyText('warehouse_code'),
    subInventoryCode: keyText('sub_inventory_code'),
    sku: keyText('sku'),
    accountNumber: text('account_number'),
    warehouseName: text('warehouse_name'),
    subInventoryName: text('sub_inventory_name'),
    description: text('description'),
    providerSku: text('provider_sku'),
    skuType: text('sku_type'),
    beginningOnHand: integer('beginning_on_hand'),
    endingOnHand: integer('ending_on_hand'),
    qtyReceived: integer('qty_received'),
    qtyTransferredIn: integer('qty_transferred_in'),
    qtyTransferredOut: integer('qty_transferred_out'),
    qtyMovedIn: integer('qty_moved_in'),
    qtyMovedOut: integer('qty_moved_out'),
    qtyShipped: integer('qty_shipped'),
    qtyAdjusted: integer('qty_adjusted'),
    qtyDamaged: integer('qty_damaged'),
    qtyReturned: integer('qty_returned'),
    qtyKitted: integer('qty_kitted'),
    qtyOther: integer('qty_other'),
    syncedAt: syncedAt(),
    raw: raw(),
    contentHash: contentHash(),
  },
  (t) => [
    primaryKey({
      name: 'inventory_activity_pk',
      columns: [t.supplierId, t.activityDate, t.warehouseCode, t.subInventoryCode, t.sku],
    }),
    index('inventory_activity_activity_date_idx').on(t.activityDate),
    index('inventory_activity_sku_activity_date_idx').on(t.sku, t.activityDate),
  ],
);
