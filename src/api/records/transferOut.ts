import type { z } from 'zod';
import { bool, dateTime, keyText, record, text } from './primitives.ts';

/** Inventory-OUT list row (spec 2.7). */
export const transferOutSchema = record({
  supplierId: text(),
  supplierName: text(),
  warehouseCode: text(),
  warehouseName: text(),
  orderNumber: keyText(),
  referenceNumber: text(),
  orderedDate: dateTime(),
  requestedPriority: text(),
  requestDate: dateTime(),
  statusCode: text(),
  status: text(),
  createdBy: text(),
  isEditable: bool(),
});
export type TransferOut = z.infer<typeof transferOutSchema>;
