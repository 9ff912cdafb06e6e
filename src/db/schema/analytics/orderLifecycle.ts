import { index, integer, primaryKey, text } from 'drizzle-orm/pg-core';
import { analyticsSchema, num, tz } from '../columns.ts';

/**
 * Each synced order's way from received to shipped to delivered, with the durations between. The
 * API has no order list: an order is here once a shipment or a return names it (its detail is then
 * fetched). A table the worker keeps from fulfillment.orders, order_holds and
 * analytics.shipment_facts (src/analytics/models/orderLifecycle.ts): only the orders whose detail,
 * holds or shipments changed are recomputed.
 */
export const orderLifecycle = analyticsSchema.table(
  'order_lifecycle',
  {
    accountNumber: text('account_number').notNull(),
    orderNumber: text('order_number').notNull(),
    warehouseCode: text('warehouse_code'),
    warehouseName: text('warehouse_name'),
    orderTypeCode: text('order_type_code'),
    requestedServiceLevel: text('requested_service_level'),
    orderStatusCode: text('order_status_code'),
    receivedAt: tz('received_at'),
    shippedAt: tz('shipped_at'),
    deliveredAt: tz('delivered_at'),
    shipments: integer('shipments'),
    holds: integer('holds'),
    hoursToShip: num('hours_to_ship'),
    daysInTransit: num('days_in_transit'),
    daysToDeliver: num('days_to_deliver'),
  },
  (t) => [
    primaryKey({ name: 'order_lifecycle_pk', columns: [t.accountNumber, t.orderNumber] }),
    index('order_lifecycle_received_at_idx').on(t.receivedAt),
  ],
);
