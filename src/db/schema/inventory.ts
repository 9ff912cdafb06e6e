import { sql } from 'drizzle-orm';
import { bigint, index, integer, primaryKey, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { contentHash, fulfillmentSchema, keyText, raw, syncedAt, tz } from './columns.ts';

/** The quantity columns of an owned inventory row, shared by the current table and its history. */
const quantities = () => ({
  qtyOnHand: integer('qty_on_hand'),
  qtyOnOrders: integer('qty_on_orders'),
  qtyOnIns: integer('qty_on_ins'),
  qtyAvailableToSell: integer('qty_available_to_sell'),
  qtyAvailableToPromise: integer('qty_available_to_promise'),
});

/**
 * Current owned inventory (spec 2.8), one row per supplier x warehouse x sub-inventory x SKU. A row
 * that vanishes from the snapshot is kept with its quantities zeroed and `vanished_at` set.
 */
export const inventory = fulfillmentSchema.table(
  'inventory',
  {
    /** Scope: the supplier whose Inventories/Owned call returned it (the row does not carry it). */
    supplierId: keyText('supplier_id'),
    warehouseCode: keyText('warehouse_code'),
    subInventoryCode: keyText('sub_inventory_code'),
    sku: keyText('sku'),
    warehouseName: text('warehouse_name'),
    description: text('description'),
    providerSku: text('provider_sku'),
    subInventoryName: text('sub_inventory_name'),
    ...quantities(),
    vanishedAt: tz('vanished_at'),
    syncedAt: syncedAt(),
    raw: raw(),
    contentHash: contentHash(),
  },
  (t) => [
    primaryKey({ name: 'inventory_pk', columns: [t.supplierId, t.warehouseCode, t.subInventoryCode, t.sku] }),
    index('inventory_sku_idx').on(t.sku),
    index('inventory_warehouse_code_idx').on(t.warehouseCode),
  ],
);

/**
 * SCD type 2 history of the inventory quantities: one row per version, valid from `valid_from`
 * until `valid_to` (null while current). At most one open version per key.
 */
export const inventoryHistory = fulfillmentSchema.table(
  'inventory_history',
  {
    supplierId: keyText('supplier_id'),
    warehouseCode: keyText('warehouse_code'),
    subInventoryCode: keyText('sub_inventory_code'),
    sku: keyText('sku'),
    validFrom: tz('valid_from').notNull(),
    validTo: tz('valid_to'),
    ...quantities(),
    /** The sync.runs row that wrote this version. */
    runId: bigint('run_id', { mode: 'number' }),
  },
  (t) => [
    primaryKey({
      name: 'inventory_history_pk',
      columns: [t.supplierId, t.warehouseCode, t.subInventoryCode, t.sku, t.validFrom],
    }),
    uniqueIndex('inventory_history_open_version_idx')
      .on(t.supplierId, t.warehouseCode, t.subInventoryCode, t.sku)
      .where(sql`${t.validTo} is null`),
    index('inventory_history_sku_valid_from_idx').on(t.sku, t.validFrom),
  ],
);
