import { CARRIERS, holdAtLocationQuerySchema } from '../../api/records/index.ts';
import { holdAtLocations } from '../records/misc.ts';
import { returnRecord } from '../records/returns.ts';
import { shipmentRecord } from '../records/shipment.ts';
import { badRequest, type Handler, LazyRows, ok, type RouteContext } from './context.ts';
import { dayRange, inRange, minuteRange, q, required, type WallRange } from './params.ts';

/**
 * GET Shipments/Updates. A shipment is in the window [begin, end] (Pacific wall-clock minutes,
 * inclusive) when the wall-clock minute of its last update (created, status changed, or a new
 * tracking event became visible) lies in it; the answer is its full current state. Small-world
 * shipments come first (by update time), then volume shipments (by update time).
 */
export const shipmentUpdates: Handler = (ctx, req) => {
  const op = 'GET Shipments/Updates';
  const account = required(q(ctx, req, op, 'accountNumber'), 'accountNumber', 2);
  const range = minuteRange(q(ctx, req, op, 'beginDate'), q(ctx, req, op, 'endDate'));
  const containerId = q(ctx, req, op, 'containerId');
  const z = ctx.world.zone;
  const small = [...ctx.world.shipments.values()]
    .filter(
      (s) =>
        s.accountNumber === account &&
        (containerId === undefined || s.containerId === containerId) &&
        inRange(z.wallMinute(s.updatedAt), range),
    )
    .sort((a, b) => a.updatedAt - b.updatedAt || (a.containerId < b.containerId ? -1 : 1))
    .map((s) => shipmentRecord(s, z));
  const volume = volumeIndexes(ctx, account, range, containerId);
  if (volume.length === 0) return ok(small);
  return ok(
    new LazyRows(small.length + volume.length, (i) =>
      i < small.length ? small[i] : ctx.volume?.record(volume[i - small.length] as number, z),
    ),
  );
};

function volumeIndexes(
  ctx: RouteContext,
  account: string,
  range: WallRange,
  containerId: string | undefined,
): number[] {
  const v = ctx.volume;
  if (!v?.accounts.includes(account)) return [];
  const z = ctx.world.zone;
  if (containerId !== undefined) {
    const i = v.indexOf(containerId);
    return i !== undefined &&
      v.accountOf(i) === account &&
      inRange(z.wallMinute(v.updatedAt[i] as number), range)
      ? [i]
      : [];
  }
  const lo = range.begin === undefined ? 0 : v.lowerBound(z.instantsOf(range.begin)[0]);
  const hi = range.end === undefined ? v.count : v.lowerBound(z.instantsOf(range.end)[1] + 60_000);
  const out: number[] = [];
  for (let i = lo; i < hi; i++) {
    if (v.accountOf(i) === account && inRange(z.wallMinute(v.updatedAt[i] as number), range)) out.push(i);
  }
  return out;
}

/** GET Shipments/Returns: the range applies to returnDate (the spec's "SubmittedDate"). */
export const shipmentReturns: Handler = (ctx, req) => {
  const op = 'GET Shipments/Returns';
  const account = required(q(ctx, req, op, 'accountNumber'), 'accountNumber', 2);
  const warehouseCode = q(ctx, req, op, 'warehouseCode');
  const range = dayRange(q(ctx, req, op, 'beginDate'), q(ctx, req, op, 'endDate'));
  const reason = q(ctx, req, op, 'returnReasonCode');
  const status = q(ctx, req, op, 'statusCode');
  const orderNumber = q(ctx, req, op, 'orderNumber');
  const trackingNumber = q(ctx, req, op, 'trackingNumber');
  const rows = [...ctx.world.returns.values()].filter(
    (r) =>
      r.accountNumber === account &&
      (warehouseCode === undefined ||
        ctx.world.shipments.get(r.containerId)?.warehouseCode === warehouseCode) &&
      (reason === undefined || r.reasonCode === reason) &&
      (status === undefined || r.status === status) &&
      (orderNumber === undefined || r.orderNumber === orderNumber) &&
      (trackingNumber === undefined || r.trackingNumber === trackingNumber) &&
      inRange(ctx.world.zone.wallDate(r.returnDate), range),
  );
  return ok(rows.map((r) => returnRecord(ctx.world, r)));
};

/** GET Shipments/Carriers/HoldAtLocations */
export const holdAt: Handler = (ctx, req) => {
  const op = 'GET Shipments/Carriers/HoldAtLocations';
  const values = {
    carrier: q(ctx, req, op, 'carrier'),
    address1: q(ctx, req, op, 'address1'),
    address2: q(ctx, req, op, 'address2'),
    address3: q(ctx, req, op, 'address3'),
    city: q(ctx, req, op, 'city'),
    stateCode: q(ctx, req, op, 'stateCode'),
    postalCode: q(ctx, req, op, 'postalCode'),
    countryCode: q(ctx, req, op, 'countryCode'),
  };
  const parsed = holdAtLocationQuerySchema.safeParse(values);
  if (!parsed.success)
    return badRequest(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  const carrier = values.carrier ?? 'CarrierA';
  if (!(CARRIERS as readonly string[]).includes(carrier))
    return badRequest(`carrier must be one of ${CARRIERS.join(', ')}`);
  return ok(
    holdAtLocations(
      ctx.world.seed,
      carrier,
      values.city ?? '',
      values.stateCode ?? '',
      values.postalCode ?? '',
    ),
  );
};
