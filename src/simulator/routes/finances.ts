import { INVOICE_TYPES } from '../../api/records/index.ts';
import { invoiceRecord } from '../records/misc.ts';
import { badRequest, type Handler, ok } from './context.ts';
import { dayRange, inRange, q } from './params.ts';

/** GET Finances/invoices: the range applies to invoiceDate. */
export const invoices: Handler = (ctx, req) => {
  const op = 'GET Finances/invoices';
  const account = q(ctx, req, op, 'accountNumber');
  const type = q(ctx, req, op, 'invoiceType');
  if (type !== undefined && !(INVOICE_TYPES as readonly string[]).includes(type)) {
    return badRequest(`invoiceType must be one of ${INVOICE_TYPES.join(', ')}`);
  }
  const invoiceNumber = q(ctx, req, op, 'invoiceNumber');
  const range = dayRange(q(ctx, req, op, 'beginDate'), q(ctx, req, op, 'endDate'));
  const rows = [...ctx.world.invoices.values()].filter(
    (i) =>
      (account === undefined || i.accountNumber === account) &&
      (type === undefined || i.invoiceType === type) &&
      (invoiceNumber === undefined || i.invoiceNumber === invoiceNumber) &&
      inRange(ctx.world.zone.wallDate(i.invoiceDate), range),
  );
  return ok(rows.map((i) => invoiceRecord(ctx.world, i)));
};
