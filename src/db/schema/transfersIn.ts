import { bigint, boolean, index, integer, jsonb, primaryKey, text } from 'drizzle-orm/pg-core';
import { contentHash, fulfillmentSchema, keyText, raw, syncedAt, tz } from './columns.ts';

/** Who created and last updated an IN record upstream, and when (header, lines and notes carry them). */
const upstreamStamps = () => ({
  creationDate: tz('creation_date'),
  createdBy: text('created_by'),
  lastUpdateDate: tz('last_update_date'),
  lastUpdatedBy: text('last_updated_by'),
});

/**
 * Inventory-IN transfers (spec 2.6): the list-row fields, plus the header fields only the detail
 * call returns (filled when the detail is fetched, i.e. for rows that changed).
 */
export const transfersIn = fulfillmentSchema.table(
  'transfers_in',
  {
    supplierId: keyText('supplier_id'),
    orderNumber: keyText('order_number'),
    rowId: bigint('row_id', { mode: 'number' }),
    supplierName: text('supplier_name'),
    warehouseCode: text('warehouse_code'),
    warehouseName: text('warehouse_name'),
    referenceNumber: text('reference_number'),
    submittedDate: tz('submitted_date'),
    statusCode: text('status_code'),
    statusName: text('status_name'),
    isCancellable: boolean('is_cancellable'),
    isEditable: boolean('is_editable'),
    deliveryMethodCode: text('delivery_method_code'),
    deliveryMethodName: text('delivery_method_name'),
    pickupSiteId: text('pickup_site_id'),
    pickupSiteCode: text('pickup_site_code'),
    pickupSiteLine1: text('pickup_site_line1'),
    pickupSiteLine2: text('pickup_site_line2'),
    pickupSiteCity: text('pickup_site_city'),
    pickupSiteStateCode: text('pickup_site_state_code'),
    pickupSitePostalCode: text('pickup_site_postal_code'),
    pickupSiteCountryCode: text('pickup_site_country_code'),
    expectedDate: tz('expected_date'),
    ...upstreamStamps(),
    pickupSitePhone: text('pickup_site_phone'),
    pickupSiteFax: text('pickup_site_fax'),
    closedDate: tz('closed_date'),
    notificationStatusCode: text('notification_status_code'),
    notificationStatusName: text('notification_status_name'),
    notificationStatusMessage: text('notification_status_message'),
    /** When the detail (header extras, lines, notes) was last fetched; null if never. */
    detailFetchedAt: tz('detail_fetched_at'),
    syncedAt: syncedAt(),
    /** The list row as received. */
    raw: raw(),
    contentHash: contentHash(),
    /** The detail header as received. */
    detailRaw: jsonb('detail_raw'),
  },
  (t) => [
    primaryKey({ name: 'transfers_in_pk', columns: [t.supplierId, t.orderNumber] }),
    index('transfers_in_submitted_date_idx').on(t.submittedDate),
    index('transfers_in_status_code_idx').on(t.supplierId, t.statusCode),
    index('transfers_in_order_number_idx').on(t.orderNumber),
  ],
);

/** IN detail line items (spec 2.6 lineItems[]). */
export const transferInLines = fulfillmentSchema.table(
  'transfer_in_lines',
  {
    supplierId: keyText('supplier_id'),
    orderNumber: keyText('order_number'),
    lineNumber: integer('line_number').notNull(),
    headerRowId: text('header_row_id'),
    inventoryItemId: text('inventory_item_id'),
    providerSku: text('provider_sku'),
    sku: text('sku'),
    skuDescription: text('sku_description'),
    qtyOrdered: integer('qty_ordered'),
    qtyReceived: integer('qty_received'),
    subInventoryCode: text('sub_inventory_code'),
    subInventoryName: text('sub_inventory_name'),
    ...upstreamStamps(),
    syncedAt: syncedAt(),
    raw: raw(),
  },
  (t) => [
    primaryKey({ name: 'transfer_in_lines_pk', columns: [t.supplierId, t.orderNumber, t.lineNumber] }),
    index('transfer_in_lines_sku_idx').on(t.sku),
  ],
);

/** IN detail notes (spec 2.6 notes[]). */
export const transferInNotes = fulfillmentSchema.table(
  'transfer_in_notes',
  {
    supplierId: keyText('supplier_id'),
    orderNumber: keyText('order_number'),
    /** A hash of the note's content (typeCode, noteTimestamp, noteText): notes carry no id. */
    noteKey: keyText('note_key'),
    typeCode: text('type_code'),
    noteTimestamp: tz('note_timestamp'),
    noteText: text('note_text'),
    ...upstreamStamps(),
    syncedAt: syncedAt(),
    raw: raw(),
  },
  (t) => [primaryKey({ name: 'transfer_in_notes_pk', columns: [t.supplierId, t.orderNumber, t.noteKey] })],
);
