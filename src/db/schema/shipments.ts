import { index, integer, primaryKey, text } from 'drizzle-orm/pg-core';
import { contentHash, fulfillmentSchema, keyText, raw, syncedAt, tz } from './columns.ts';

/** Shipment update headers (spec 2.10), one row per container. */
export const shipments = fulfillmentSchema.table(
  'shipments',
  {
    containerId: text('container_id').primaryKey(),
    /** Scope: the account whose Shipments/Updates call returned it (the record does not carry it). */
    accountNumber: keyText('account_number'),
    orderNumber: text('order_number'),
    shipDate: tz('ship_date'),
    carrierName: text('carrier_name'),
    trackingNumber: text('tracking_number'),
    trackingNumberUrl: text('tracking_number_url'),
    statusCode: text('status_code'),
    statusDescription: text('status_description'),
    syncedAt: syncedAt(),
    raw: raw(),
    contentHash: contentHash(),
  },
  (t) => [
    index('shipments_account_ship_date_idx').on(t.accountNumber, t.shipDate),
    index('shipments_ship_date_idx').on(t.shipDate),
    index('shipments_status_code_idx').on(t.statusCode),
    index('shipments_order_number_idx').on(t.orderNumber),
    index('shipments_tracking_number_idx').on(t.trackingNumber),
  ],
);

/** Shipment line items (spec 2.10 lineItems[]). */
export const shipmentLines = fulfillmentSchema.table(
  'shipment_lines',
  {
    containerId: keyText('container_id'),
    lineNumber: integer('line_number').notNull(),
    sku: text('sku'),
    quantity: integer('quantity'),
    syncedAt: syncedAt(),
    raw: raw(),
  },
  (t) => [
    primaryKey({ name: 'shipment_lines_pk', columns: [t.containerId, t.lineNumber] }),
    index('shipment_lines_sku_idx').on(t.sku),
  ],
);

/** Shipment tracking events (spec 2.10 events[]). */
export const shipmentEvents = fulfillmentSchema.table(
  'shipment_events',
  {
    containerId: keyText('container_id'),
    /** sha256 hex of [eventTime, city, stateOrProvince, description] as JSON (src/events/trackingEventKey.ts). */
    eventKey: keyText('event_key'),
    eventTime: tz('event_time'),
    city: text('city'),
    stateOrProvince: text('state_or_province'),
    description: text('description'),
    syncedAt: syncedAt(),
    raw: raw(),
  },
  (t) => [
    primaryKey({ name: 'shipment_events_pk', columns: [t.containerId, t.eventKey] }),
    index('shipment_events_event_time_idx').on(t.eventTime),
  ],
);
