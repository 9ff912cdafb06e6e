import { date, index, integer, primaryKey, text } from 'drizzle-orm/pg-core';
import { analyticsSchema } from '../columns.ts';

/**
 * Units shipped per account, warehouse (the order's), SKU and Pacific ship day, from the shipment
 * lines of analytics.shipment_facts' shipments; and the same per month. Tables the worker keeps
 * (src/analytics/models/shippedUnits.ts): a changed shipment recomputes its account's day, and the
 * month follows by the difference. The return rates divide by these. A shipment without a ship
 * date is not counted (it has not shipped).
 */
const shippedColumns = () => ({
  accountNumber: text('account_number').notNull(),
  warehouseCode: text('warehouse_code').notNull(),
  sku: text('sku').notNull(),
  shipments: integer('shipments').notNull(),
  units: integer('units').notNull(),
});

export const shippedUnitsDaily = analyticsSchema.table(
  'shipped_units_daily',
  { ...shippedColumns(), shipDay: date('ship_day', { mode: 'string' }).notNull() },
  (t) => [
    primaryKey({
      name: 'shipped_units_daily_pk',
      columns: [t.accountNumber, t.shipDay, t.warehouseCode, t.sku],
    }),
    index('shipped_units_daily_ship_day_idx').on(t.shipDay),
  ],
);

export const shippedUnitsMonthly = analyticsSchema.table(
  'shipped_units_monthly',
  { ...shippedColumns(), month: date('month', { mode: 'string' }).notNull() },
  (t) => [
    primaryKey({
      name: 'shipped_units_monthly_pk',
      columns: [t.accountNumber, t.month, t.warehouseCode, t.sku],
    }),
  ],
);
