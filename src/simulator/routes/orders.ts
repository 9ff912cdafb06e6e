import { z } from 'zod';
import { cancelOrder, isCancellable } from '../evolve/orders.ts';
import { packingSlipRecord } from '../records/misc.ts';
import { orderDetailRecord } from '../records/order.ts';
import { orderKey } from '../world/state.ts';
import { badRequest, type Handler, notFound, ok, type RouteContext, type SimRequest } from './context.ts';
import { flag, q } from './params.ts';

/** The order a path's {accountNumber}/{orderNumber} names, if the world has it. */
const pathOrder = (ctx: RouteContext, req: SimRequest) =>
  ctx.world.orders.get(orderKey(req.params.accountNumber ?? '', req.params.orderNumber ?? ''));

const orderNotFound = (req: SimRequest) =>
  notFound(`Order ${req.params.orderNumber} was not found for account ${req.params.accountNumber}`);

/** GET Orders/Detail/{accountNumber}/{orderNumber} */
export const orderDetail: Handler = (ctx, req) => {
  const order = pathOrder(ctx, req);
  if (!order) return orderNotFound(req);
  return ok(orderDetailRecord(ctx.world, order));
};

/** DELETE Orders/{accountNumber}/{orderNumber}: cancels an order that has not shipped. */
export const cancelOrderRoute: Handler = (ctx, req) => {
  const op = 'DELETE Orders/{accountNumber}/{orderNumber}';
  const rename = flag(q(ctx, req, op, 'renameOrder'), 'renameOrder', false);
  const order = pathOrder(ctx, req);
  if (!order) return orderNotFound(req);
  if (!isCancellable(order)) {
    return badRequest(
      `Order ${order.orderNumber} cannot be cancelled: it has ${order.cancelledAt ? 'already been cancelled' : 'shipped'}`,
    );
  }
  cancelOrder(ctx.world, order, ctx.now);
  if (rename)
    order.messages.push({ type: 'INFO', text: `Renamed to ${order.orderNumber}-CANCELLED`, at: ctx.now });
  return ok([`Order ${order.orderNumber} cancelled`]);
};

const bulkSchema = z.object({ packingSlipIDs: z.array(z.number().int()) });

/** POST Orders/PackingSlips/Bulk: the slips among the given ids that exist. */
export const packingSlips: Handler = (ctx, req) => {
  const parsed = bulkSchema.safeParse(req.body);
  if (!parsed.success) return badRequest('body must be {"packingSlipIDs": [integer, ...]}');
  const wanted = new Set(parsed.data.packingSlipIDs);
  return ok(
    ctx.world.packingSlips.filter((s) => wanted.has(s.id)).map((s) => packingSlipRecord(ctx.world, s)),
  );
};
