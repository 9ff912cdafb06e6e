import { transferInCreateSchema } from '../../api/records/index.ts';
import { addTransferIn, cancelTransferIn, isTransferInCancellable } from '../evolve/transfers.ts';
import { transferInDetail, transferInRow, transferOutRecord } from '../records/transfers.ts';
import { productKey } from '../world/state.ts';
import { WAREHOUSES } from '../world/warehouses.ts';
import { badRequest, type Handler, notFound, ok } from './context.ts';
import { dayRange, inRange, q, required } from './params.ts';

/** POST Transfers/INs: a DRAFT IN (it stays DRAFT: the submit step is not part of the API). */
export const createTransferIn: Handler = (ctx, req) => {
  const parsed = transferInCreateSchema.safeParse(req.body);
  if (!parsed.success)
    return badRequest(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const r = parsed.data;
  if (!ctx.world.suppliers.some((s) => s.id === r.supplierId))
    return badRequest(`supplierId ${r.supplierId} is not known`);
  if (r.deliveryMethodCode !== 'PROVIDER_PICKUP' && r.deliveryMethodCode !== 'CLIENT_DROPOFF') {
    return badRequest('deliveryMethodCode must be PROVIDER_PICKUP or CLIENT_DROPOFF');
  }
  if (!r.warehouseCode || !(r.warehouseCode in WAREHOUSES))
    return badRequest(`warehouseCode must be one of ${Object.keys(WAREHOUSES).join(', ')}`);
  const expected = r.expectedDate === undefined ? ctx.now + 3 * 86_400_000 : Date.parse(r.expectedDate);
  if (Number.isNaN(expected)) return badRequest('expectedDate must be an ISO 8601 date-time');
  const lines = r.lineItems ?? [];
  for (const line of lines) {
    if (!ctx.world.products.has(productKey(r.supplierId, line.supplierSku)))
      return badRequest(`supplierSku ${line.supplierSku} is not a product of ${r.supplierId}`);
    if (line.qty <= 0) return badRequest('qty must be positive');
  }
  const transfer = addTransferIn(ctx.world, ctx.now, {
    supplierId: r.supplierId,
    referenceNumber: r.referenceNumber,
    warehouseCode: r.warehouseCode,
    deliveryMethodCode: r.deliveryMethodCode,
    pickupSiteId: r.pickupSiteId ?? null,
    expectedDate: expected,
    createdBy: 'api',
    lines: lines.map((l, i) => ({
      lineNumber: i + 1,
      sku: l.supplierSku,
      subInventoryCode: l.subInventoryCode,
      qtyOrdered: l.qty,
      qtyReceived: 0,
      updatedAt: ctx.now,
    })),
  });
  return ok([transfer.orderNumber]);
};

/**
 * GET Transfers/INs. The date range applies to submittedDate; a DRAFT (not yet submitted) is
 * matched by its creationDate instead, so new requests are visible to a windowed reader.
 */
export const listTransfersIn: Handler = (ctx, req) => {
  const op = 'GET Transfers/INs';
  const supplierId = required(q(ctx, req, op, 'supplierId'), 'supplierId', 2);
  const warehouseCode = q(ctx, req, op, 'warehouseCode');
  const sku = q(ctx, req, op, 'sku');
  const status = q(ctx, req, op, 'statusCode');
  const method = q(ctx, req, op, 'deliveryMethodCode');
  const range = dayRange(q(ctx, req, op, 'beginDate'), q(ctx, req, op, 'endDate'));
  const z = ctx.world.zone;
  const rows = [...ctx.world.transfersIn.values()].filter(
    (t) =>
      t.supplierId === supplierId &&
      (warehouseCode === undefined || t.warehouseCode === warehouseCode) &&
      (sku === undefined || t.lines.some((l) => l.sku === sku)) &&
      (status === undefined || t.status === status) &&
      (method === undefined || t.deliveryMethodCode === method) &&
      inRange(z.wallDate(t.submittedAt ?? t.createdAt), range),
  );
  return ok(rows.map((t) => transferInRow(ctx.world, t)));
};

/** GET Transfers/INs/{supplierId}/{orderNumber} */
export const transferInDetailRoute: Handler = (ctx, req) => {
  const t = ctx.world.transfersIn.get(`${req.params.supplierId}|${req.params.orderNumber}`);
  if (!t) return notFound(`IN ${req.params.orderNumber} was not found for supplier ${req.params.supplierId}`);
  return ok(transferInDetail(ctx.world, t));
};

/** DELETE Transfers/INs: cancels a DRAFT or SUBMITTED IN. */
export const cancelTransferInRoute: Handler = (ctx, req) => {
  const op = 'DELETE Transfers/INs';
  const supplierId = required(q(ctx, req, op, 'supplierId'), 'supplierId', 2);
  const orderNumber = required(q(ctx, req, op, 'orderNumber'), 'orderNumber', 1);
  const t = ctx.world.transfersIn.get(`${supplierId}|${orderNumber}`);
  if (!t) return notFound(`IN ${orderNumber} was not found for supplier ${supplierId}`);
  if (!isTransferInCancellable(t))
    return badRequest(`IN ${orderNumber} is ${t.status} and can no longer be cancelled`);
  cancelTransferIn(ctx.world, t, ctx.now);
  return ok([`IN ${orderNumber} cancelled`]);
};

/** POST Transfers/OUTs/Search: the range applies to orderedDate. */
export const searchTransfersOut: Handler = (ctx, req) => {
  const op = 'POST Transfers/OUTs/Search';
  const supplierId = required(q(ctx, req, op, 'supplierId'), 'supplierId', 2);
  const warehouseCode = q(ctx, req, op, 'warehouseCode');
  const sku = q(ctx, req, op, 'sku');
  const range = dayRange(q(ctx, req, op, 'beginDate'), q(ctx, req, op, 'endDate'));
  const rows = [...ctx.world.transfersOut.values()].filter(
    (o) =>
      o.supplierId === supplierId &&
      (warehouseCode === undefined || o.warehouseCode === warehouseCode) &&
      (sku === undefined || o.lines.some((l) => l.sku === sku)) &&
      inRange(ctx.world.zone.wallDate(o.orderedAt), range),
  );
  return ok(rows.map((o) => transferOutRecord(ctx.world, o)));
};
