import { boolean, index, primaryKey, text } from 'drizzle-orm/pg-core';
import { contentHash, fulfillmentSchema, keyText, raw, syncedAt, tz } from './columns.ts';

/** Inventory-OUT transfers (spec 2.7). */
export const transfersOut = fulfillmentSchema.table(
  'transfers_out',
  {
    /** Scope and key: the supplier whose search returned it (the row's own supplierId if present). */
    supplierId: keyText('supplier_id'),
    orderNumber: keyText('order_number'),
    supplierName: text('supplier_name'),
    warehouseCode: text('warehouse_code'),
    warehouseName: text('warehouse_name'),
    referenceNumber: text('reference_number'),
    orderedDate: tz('ordered_date'),
    requestedPriority: text('requested_priority'),
    requestDate: tz('request_date'),
    statusCode: text('status_code'),
    status: text('status'),
    createdBy: text('created_by'),
    isEditable: boolean('is_editable'),
    syncedAt: syncedAt(),
    raw: raw(),
    contentHash: contentHash(),
  },
  (t) => [
    primaryKey({ name: 'transfers_out_pk', columns: [t.supplierId, t.orderNumber] }),
    index('transfers_out_ordered_date_idx').on(t.orderedDate),
    index('transfers_out_request_date_idx').on(t.requestDate),
    index('transfers_out_status_code_idx').on(t.statusCode),
    index('transfers_out_order_number_idx').on(t.orderNumber),
  ],
);
