import { boolean, index, primaryKey, text } from 'drizzle-orm/pg-core';
import { analyticsSchema, num, tz } from '../columns.ts';

/**
 * Stock-out spells from fulfillment.inventory_history: a run of versions whose
 * qty_available_to_sell is 0 or less, from the first of them until the next version above 0 (the
 * rule of the inventory.out_of_stock event). A row already at 0 when the worker first saw it starts
 * a spell at that first observation (`out_when_first_seen`: it ran out earlier, when is unknown).
 * A table the worker keeps (src/analytics/models/stockOutSpells.ts): a change recomputes only
 * the spells of its row from the one it falls in.
 */
export const stockOutSpells = analyticsSchema.table(
  'stock_out_spells',
  {
    supplierId: text('supplier_id').notNull(),
    warehouseCode: text('warehouse_code').notNull(),
    subInventoryCode: text('sub_inventory_code').notNull(),
    sku: text('sku').notNull(),
    startedAt: tz('started_at').notNull(),
    endedAt: tz('ended_at'),
    isOngoing: boolean('is_ongoing'),
    durationHours: num('duration_hours'),
    outWhenFirstSeen: boolean('out_when_first_seen'),
  },
  (t) => [
    primaryKey({
      name: 'stock_out_spells_pk',
      columns: [t.supplierId, t.warehouseCode, t.subInventoryCode, t.sku, t.startedAt],
    }),
    index('stock_out_spells_started_at_idx').on(t.startedAt),
    index('stock_out_spells_sku_idx').on(t.sku, t.startedAt),
  ],
);
