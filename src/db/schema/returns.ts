import { bigint, boolean, index, integer, jsonb, primaryKey, text } from 'drizzle-orm/pg-core';
import { contentHash, fulfillmentSchema, keyText, raw, syncedAt, tz } from './columns.ts';

/**
 * Return records (spec 2.9). Identifiers the spec types as integer (shipReturnId, shipmentKey) are
 * bigint: an integer all the same, but their range is not shown and an id must never overflow.
 */
export const returns = fulfillmentSchema.table(
  'returns',
  {
    shipReturnId: bigint('ship_return_id', { mode: 'number' }).primaryKey(),
    /** Scope: the account whose Shipments/Returns call returned it (the record does not carry it). */
    accountNumber: keyText('account_number'),
    shipmentKey: bigint('shipment_key', { mode: 'number' }),
    customerName: text('customer_name'),
    providerOrderNumber: text('provider_order_number'),
    orderNumber: text('order_number'),
    orderTypeCode: text('order_type_code'),
    orderTypeName: text('order_type_name'),
    shipFromWarehouseCode: text('ship_from_warehouse_code'),
    consumerFirstName: text('consumer_first_name'),
    consumerLastName: text('consumer_last_name'),
    consumerAddress1: text('consumer_address1'),
    consumerAddress2: text('consumer_address2'),
    consumerCity: text('consumer_city'),
    consumerState: text('consumer_state'),
    consumerZipCode: text('consumer_zip_code'),
    notificationEmailAddress: text('notification_email_address'),
    notificationPhoneNumber: text('notification_phone_number'),
    wmsCarrierCode: text('wms_carrier_code'),
    carrierCode: text('carrier_code'),
    trackingNumber: text('tracking_number'),
    trackingNumberUrl: text('tracking_number_url'),
    trackingStatusUrl: text('tracking_status_url'),
    returnReasonCode: text('return_reason_code'),
    returnReasonName: text('return_reason_name'),
    processingStatusCode: text('processing_status_code'),
    processingStatusName: text('processing_status_name'),
    resolutionCode: text('resolution_code'),
    resolutionName: text('resolution_name'),
    shipDate: tz('ship_date'),
    returnDate: tz('return_date'),
    hasPersonalizations: boolean('has_personalizations'),
    vasOrderPersonalizations: jsonb('vas_order_personalizations'),
    syncedAt: syncedAt(),
    raw: raw(),
    contentHash: contentHash(),
  },
  (t) => [
    index('returns_account_return_date_idx').on(t.accountNumber, t.returnDate),
    index('returns_return_date_idx').on(t.returnDate),
    index('returns_ship_date_idx').on(t.shipDate),
    index('returns_processing_status_code_idx').on(t.processingStatusCode),
    index('returns_order_number_idx').on(t.orderNumber),
    index('returns_tracking_number_idx').on(t.trackingNumber),
  ],
);

/** Return line items (spec 2.9 lineItems[]). A null line or component number is stored as 0. */
export const returnLines = fulfillmentSchema.table(
  'return_lines',
  {
    shipReturnId: bigint('ship_return_id', { mode: 'number' }).notNull(),
    lineNumber: integer('line_number').notNull(),
    componentNumber: integer('component_number').notNull(),
    shipmentKey: bigint('shipment_key', { mode: 'number' }),
    sku: text('sku'),
    skuDescription: text('sku_description'),
    providerSku: text('provider_sku'),
    quantityOrdered: integer('quantity_ordered'),
    quantityShipped: integer('quantity_shipped'),
    quantityReturned: integer('quantity_returned'),
    quantityDamaged: integer('quantity_damaged'),
    quantityMissing: integer('quantity_missing'),
    vasOrderPersonalizations: jsonb('vas_order_personalizations'),
    syncedAt: syncedAt(),
    raw: raw(),
  },
  (t) => [
    primaryKey({ name: 'return_lines_pk', columns: [t.shipReturnId, t.lineNumber, t.componentNumber] }),
    index('return_lines_sku_idx').on(t.sku),
  ],
);
