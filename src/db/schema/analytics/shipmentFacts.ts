import { sql } from 'drizzle-orm';
import { boolean, date, integer, text } from 'drizzle-orm/pg-core';
import { analyticsSchema, num, tz } from '../columns.ts';

/**
 * One row per shipment (container) with what its tracking scans tell: first scan, delivery, transit
 * time, exceptions; and what its order detail tells: warehouse, service level, SLA, ship-to region.
 * Materialized (refreshed after the syncs that change its sources, src/analytics/refresh.ts): a
 * year of shipments is millions of scans, too many to read per question. Delivered-at is the latest
 * scan of a shipment whose status is DELIVERED: the status follows the latest scan by event time.
 */
export const shipmentFacts = analyticsSchema
  .materializedView('shipment_facts', {
    containerId: text('container_id'),
    accountNumber: text('account_number'),
    orderNumber: text('order_number'),
    warehouseCode: text('warehouse_code'),
    warehouseName: text('warehouse_name'),
    carrierName: text('carrier_name'),
    trackingNumber: text('tracking_number'),
    statusCode: text('status_code'),
    requestedServiceLevel: text('requested_service_level'),
    plannedServiceLevel: text('planned_service_level'),
    slaStatusCode: text('sla_status_code'),
    slaStatusName: text('sla_status_name'),
    slaDate: tz('sla_date'),
    orderCreatedAt: tz('order_created_at'),
    shipDate: tz('ship_date'),
    shipDay: date('ship_day', { mode: 'string' }),
    firstScanAt: tz('first_scan_at'),
    lastScanAt: tz('last_scan_at'),
    deliveredAt: tz('delivered_at'),
    transitDays: num('transit_days'),
    isDelivered: boolean('is_delivered'),
    isException: boolean('is_exception'),
    hadException: boolean('had_exception'),
    isReturnedToSender: boolean('is_returned_to_sender'),
    hasReturn: boolean('has_return'),
    shippedAfterSla: boolean('shipped_after_sla'),
    deliveredAfterSla: boolean('delivered_after_sla'),
    units: integer('units'),
    shipToCity: text('ship_to_city'),
    shipToStateCode: text('ship_to_state_code'),
    shipToPostalCode: text('ship_to_postal_code'),
    shipToCountryCode: text('ship_to_country_code'),
  })
  .as(sql`
    SELECT s.container_id, s.account_number, s.order_number, o.warehouse_code, o.warehouse_name,
           s.carrier_name, s.tracking_number, s.status_code,
           o.requested_service_level, o.planned_service_level, o.sla_status_code, o.sla_status_name, o.sla_date,
           o.creation_date AS order_created_at,
           s.ship_date, (s.ship_date AT TIME ZONE 'America/Los_Angeles')::date AS ship_day,
           ev.first_scan_at, ev.last_scan_at, d.delivered_at,
           round((extract(epoch FROM d.delivered_at - s.ship_date) / 86400)::numeric, 2) AS transit_days,
           s.status_code = 'DELIVERED' AS is_delivered,
           s.status_code = 'EXCEPTION' AS is_exception,
           (s.status_code IN ('EXCEPTION', 'RETURNED') OR coalesce(ev.exception_scans, 0) > 0) AS had_exception,
           s.status_code = 'RETURNED' AS is_returned_to_sender,
           EXISTS (SELECT 1 FROM fulfillment.returns r
                    WHERE r.account_number = s.account_number AND r.order_number = s.order_number) AS has_return,
           s.ship_date > o.sla_date AS shipped_after_sla,
           d.delivered_at > o.sla_date AS delivered_after_sla,
           coalesce(l.units, 0)::integer AS units,
           a.city AS ship_to_city, a.state_code AS ship_to_state_code, a.postal_code AS ship_to_postal_code,
           a.country_code AS ship_to_country_code
      FROM fulfillment.shipments s
      LEFT JOIN fulfillment.orders o
        ON o.account_number = s.account_number AND o.order_number = s.order_number
      LEFT JOIN fulfillment.order_addresses a
        ON a.account_number = s.account_number AND a.order_number = s.order_number
       AND a.role = 'ship_to' AND a.position = 0
      LEFT JOIN LATERAL (
        SELECT min(e.event_time) AS first_scan_at, max(e.event_time) AS last_scan_at,
               count(*) FILTER (WHERE e.description ~* 'exception|refused') AS exception_scans
          FROM fulfillment.shipment_events e
         WHERE e.container_id = s.container_id) ev ON true
      CROSS JOIN LATERAL (
        SELECT CASE WHEN s.status_code = 'DELIVERED' THEN ev.last_scan_at END AS delivered_at) d
      LEFT JOIN LATERAL (
        SELECT sum(x.quantity) AS units FROM fulfillment.shipment_lines x
         WHERE x.container_id = s.container_id) l ON true`);
