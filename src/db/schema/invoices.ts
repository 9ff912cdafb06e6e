import { index, integer, text } from 'drizzle-orm/pg-core';
import { contentHash, fulfillmentSchema, num, raw, syncedAt, tz } from './columns.ts';

/** Invoices (spec 2.13). */
export const invoices = fulfillmentSchema.table(
  'invoices',
  {
    invoiceNumber: text('invoice_number').primaryKey(),
    /** The record's accountNumber; the stream fills it with its scope when the record has none. */
    accountNumber: text('account_number'),
    customerName: text('customer_name'),
    invoiceType: text('invoice_type'),
    orderCount: integer('order_count'),
    invoiceDate: tz('invoice_date'),
    classInvoiceAmount: num('class_invoice_amount'),
    totalInvoiceAmount: num('total_invoice_amount'),
    paymentsReceived: num('payments_received'),
    balanceDue: num('balance_due'),
    syncedAt: syncedAt(),
    raw: raw(),
    contentHash: contentHash(),
  },
  (t) => [
    index('invoices_account_invoice_date_idx').on(t.accountNumber, t.invoiceDate),
    index('invoices_invoice_date_idx').on(t.invoiceDate),
    index('invoices_invoice_type_idx').on(t.invoiceType),
  ],
);
