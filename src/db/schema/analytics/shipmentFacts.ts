import { boolean, date, index, integer, primaryKey, text } from 'drizzle-orm/pg-core';
import { analyticsSchema, num, tz } from '../columns.ts';

/**
 * One row per shipment (container) with what its tracking scans tell: first scan, delivery, transit
 * time, exceptions; and what its order detail tells: warehouse, service level, SLA, ship-to region.
 * A table the worker keeps (src/analytics/models/shipmentFacts.ts): only the shipments whose
 * records, scans, lines, order or returns changed are recomputed. Delivered-at is the latest scan
 * of a shipment whose status is DELIVERED: the status follows the latest scan by event time. The
 * SLA date bounds shipping (the warehouse's promise), so `shipped_after_sla` is the SLA miss.
 */
export const shipmentFacts = analyticsSchema.table(
  'shipment_facts',
  {
    containerId: text('container_id').notNull(),
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
    units: integer('units'),
    shipToCity: text('ship_to_city'),
    shipToStateCode: text('ship_to_state_code'),
    shipToPostalCode: text('ship_to_postal_code'),
    shipToCountryCode: text('ship_to_country_code'),
  },
  (t) => [
    primaryKey({ name: 'shipment_facts_pk', columns: [t.containerId] }),
    index('shipment_facts_ship_day_idx').on(t.shipDay),
    index('shipment_facts_account_ship_day_idx').on(t.accountNumber, t.shipDay),
    index('shipment_facts_carrier_ship_day_idx').on(t.carrierName, t.shipDay),
    index('shipment_facts_order_idx').on(t.accountNumber, t.orderNumber),
  ],
);
