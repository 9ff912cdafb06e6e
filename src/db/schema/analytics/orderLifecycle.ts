import { integer, text } from 'drizzle-orm/pg-core';
import { analyticsSchema, num, tz } from '../columns.ts';

/** The query of the view below (it reads analytics.shipment_facts). */
export const ORDER_LIFECYCLE_QUERY = `
    SELECT o.account_number, o.order_number, o.warehouse_code, o.warehouse_name, o.order_type_code,
           o.requested_service_level, o.order_status_code,
           coalesce(o.received_date, o.creation_date) AS received_at,
           coalesce(f.shipped_at, o.shipped_date) AS shipped_at,
           f.delivered_at,
           coalesce(f.shipments, 0) AS shipments,
           coalesce(h.holds, 0) AS holds,
           round((extract(epoch FROM coalesce(f.shipped_at, o.shipped_date) - coalesce(o.received_date, o.creation_date))
                  / 3600)::numeric, 2) AS hours_to_ship,
           round((extract(epoch FROM f.delivered_at - coalesce(f.shipped_at, o.shipped_date)) / 86400)::numeric, 2)
             AS days_in_transit,
           round((extract(epoch FROM f.delivered_at - coalesce(o.received_date, o.creation_date)) / 86400)::numeric, 2)
             AS days_to_deliver
      FROM fulfillment.orders o
      LEFT JOIN (
        SELECT x.account_number, x.order_number, count(*)::integer AS shipments, min(x.ship_date) AS shipped_at,
               CASE WHEN bool_and(x.is_delivered) THEN max(x.delivered_at) END AS delivered_at
          FROM analytics.shipment_facts x
         GROUP BY x.account_number, x.order_number) f
        ON f.account_number = o.account_number AND f.order_number = o.order_number
      LEFT JOIN (
        SELECT y.account_number, y.order_number, count(*)::integer AS holds
          FROM fulfillment.order_holds y
         GROUP BY y.account_number, y.order_number) h
        ON h.account_number = o.account_number AND h.order_number = o.order_number`;

/**
 * Each synced order's way from received to shipped to delivered, with the durations between. The
 * API has no order list: an order is here once a shipment or a return names it (its detail is then
 * fetched). Materialized from fulfillment.orders, order_holds and analytics.shipment_facts.
 *
 * Declared `existing`: drizzle-kit creates views in name order, which would put this one before
 * analytics.shipment_facts, which it reads; migrations/0018_analytics_views.sql creates it from
 * the query above (test/analytics/refresh.test.ts checks that the two agree).
 */
export const orderLifecycle = analyticsSchema
  .materializedView('order_lifecycle', {
    accountNumber: text('account_number'),
    orderNumber: text('order_number'),
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
  })
  .existing();
