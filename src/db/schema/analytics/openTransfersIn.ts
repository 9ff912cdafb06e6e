import { sql } from 'drizzle-orm';
import { boolean, integer, text } from 'drizzle-orm/pg-core';
import { analyticsSchema, tz } from '../columns.ts';

/**
 * Inbound transfers (INs) not yet closed or cancelled, with their age and what is still to arrive.
 * A plain view: open INs are few, and their age runs with now().
 */
export const openTransfersIn = analyticsSchema
  .view('open_transfers_in', {
    supplierId: text('supplier_id'),
    orderNumber: text('order_number'),
    referenceNumber: text('reference_number'),
    warehouseCode: text('warehouse_code'),
    warehouseName: text('warehouse_name'),
    statusCode: text('status_code'),
    statusName: text('status_name'),
    createdAt: tz('created_at'),
    submittedDate: tz('submitted_date'),
    expectedDate: tz('expected_date'),
    ageDays: integer('age_days'),
    isOverdue: boolean('is_overdue'),
    lineCount: integer('line_count'),
    qtyOrdered: integer('qty_ordered'),
    qtyReceived: integer('qty_received'),
    qtyOutstanding: integer('qty_outstanding'),
  })
  .as(sql`
    SELECT t.supplier_id, t.order_number, t.reference_number, t.warehouse_code, t.warehouse_name,
           t.status_code, t.status_name, t.creation_date AS created_at, t.submitted_date, t.expected_date,
           floor(extract(epoch FROM now() - coalesce(t.submitted_date, t.creation_date)) / 86400)::integer
             AS age_days,
           t.expected_date < now() AS is_overdue,
           coalesce(l.line_count, 0) AS line_count, l.qty_ordered, l.qty_received,
           greatest(l.qty_ordered - l.qty_received, 0) AS qty_outstanding
      FROM fulfillment.transfers_in t
      LEFT JOIN LATERAL (
        SELECT count(*)::integer AS line_count, sum(x.qty_ordered)::integer AS qty_ordered,
               sum(x.qty_received)::integer AS qty_received
          FROM fulfillment.transfer_in_lines x
         WHERE x.supplier_id = t.supplier_id AND x.order_number = t.order_number) l ON true
     WHERE t.status_code IN ('DRAFT', 'SUBMITTED', 'PROCESSING')`);
