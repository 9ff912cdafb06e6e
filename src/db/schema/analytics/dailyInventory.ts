import { boolean, date, index, integer, primaryKey, text } from 'drizzle-orm/pg-core';
import { analyticsSchema } from '../columns.ts';

/**
 * On-hand per supplier, warehouse, sub-inventory, SKU and Pacific day, at the end of the day.
 * Observed days come from fulfillment.inventory_history (the version open at the day's end).
 * Days before a row was first observed are reconstructed from fulfillment.inventory_activity,
 * which the first load reads back over the configured history: a day with activity ends at its
 * ending on-hand, which holds until the row's next activity; before its first activity the row
 * held that activity's beginning on-hand; a row with no activity at all held what it was first
 * observed with. Reconstruction starts at the supplier's earliest activity day (the history read)
 * and gives no available-to-sell (the activity has none). A table the worker keeps
 * (src/analytics/models/dailyInventory.ts): only the rows and days a change touches are
 * recomputed, and each new day extends the rows still open.
 */
export const dailyInventory = analyticsSchema.table(
  'daily_inventory',
  {
    day: date('day', { mode: 'string' }).notNull(),
    supplierId: text('supplier_id').notNull(),
    warehouseCode: text('warehouse_code').notNull(),
    subInventoryCode: text('sub_inventory_code').notNull(),
    sku: text('sku').notNull(),
    qtyOnHand: integer('qty_on_hand'),
    qtyAvailableToSell: integer('qty_available_to_sell'),
    isReconstructed: boolean('is_reconstructed'),
  },
  (t) => [
    primaryKey({
      name: 'daily_inventory_pk',
      columns: [t.supplierId, t.warehouseCode, t.subInventoryCode, t.sku, t.day],
    }),
    index('daily_inventory_sku_day_idx').on(t.sku, t.day),
    index('daily_inventory_day_idx').on(t.day),
  ],
);
