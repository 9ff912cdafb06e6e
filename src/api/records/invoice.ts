import type { z } from 'zod';
import { INVOICE_TYPES } from './enums.ts';
import { dateTime, int, keyText, num, openEnum, record, text } from './primitives.ts';

/** Invoice record (spec 2.13). */
export const invoiceSchema = record({
  invoiceNumber: keyText(),
  customerName: text(),
  accountNumber: text(),
  invoiceType: openEnum(INVOICE_TYPES),
  orderCount: int(),
  invoiceDate: dateTime(),
  classInvoiceAmount: num(),
  totalInvoiceAmount: num(),
  paymentsReceived: num(),
  balanceDue: num(),
});
export type Invoice = z.infer<typeof invoiceSchema>;
