import { activityRecord, ownedInventoryRecord } from '../records/inventory.ts';
import type { InventoryRow } from '../types.ts';
import { inventoryKey } from '../world/state.ts';
import {
  badRequest,
  type Handler,
  ok,
  RequestRuleError,
  type RouteContext,
  type SimRequest,
} from './context.ts';
import { dayRange, flag, q, required } from './params.ts';

/** GET Inventories/Owned. Dropped rows (emptied sub-inventories) are never listed. */
export const ownedInventory: Handler = (ctx, req) => {
  const op = 'GET Inventories/Owned';
  const listed = ownedInventoryFilter(ctx, req);
  if (q(ctx, req, op, 'warehouseCode') !== undefined && q(ctx, req, op, 'sku') !== undefined) {
    return badRequest('warehouseCode and sku are alternatives: use one of them, not both');
  }
  const rows = [...ctx.world.inventory.values()].filter(listed);
  return ok(rows.map((r) => ownedInventoryRecord(ctx.world, r)));
};

/**
 * The filter both inventory operations take: the supplier (required: a 400 without it), and the
 * warehouse, sub-inventory and SKU when given.
 */
function inventoryParams(
  ctx: RouteContext,
  req: SimRequest,
  op: 'GET Inventories/Owned' | 'GET Inventories/Activity',
): { supplierId: string; warehouseCode?: string; sub?: string; sku?: string } {
  return {
    supplierId: required(q(ctx, req, op, 'supplierId'), 'supplierId', 2),
    warehouseCode: q(ctx, req, op, 'warehouseCode'),
    sub: q(ctx, req, op, 'subInventoryCode'),
    sku: q(ctx, req, op, 'sku'),
  };
}

/** Whether a row is in the answer of an Inventories/Owned query (throws on a missing supplierId). */
export function ownedInventoryFilter(ctx: RouteContext, req: SimRequest): (row: InventoryRow) => boolean {
  const op = 'GET Inventories/Owned';
  const { supplierId, warehouseCode, sub, sku } = inventoryParams(ctx, req, op);
  const onHandOnly = flag(q(ctx, req, op, 'onHandOnly'), 'onHandOnly', true);
  return (r) => {
    if (r.supplierId !== supplierId || r.dropped) return false;
    // With a SKU, the sub-inventory and on-hand restriction are ignored (spec 4.5).
    if (sku !== undefined) return r.sku === sku;
    return (
      (warehouseCode === undefined || r.warehouseCode === warehouseCode) &&
      (sub === undefined || r.subInventoryCode === sub) &&
      (!onHandOnly || r.qtyOnHand > 0)
    );
  };
}

/** Every day (yyyy-MM-dd) from begin to end inclusive. */
export function daysBetween(begin: string, end: string): string[] {
  const days: string[] = [];
  let t = Date.parse(`${begin}T00:00:00Z`);
  const last = Date.parse(`${end}T00:00:00Z`);
  if (last - t > 400 * 86_400_000)
    throw new RequestRuleError('the activity date range is limited to 400 days');
  for (; t <= last; t += 86_400_000) days.push(new Date(t).toISOString().slice(0, 10));
  return days;
}

/** GET Inventories/Activity: one row per day, warehouse, sub-inventory and SKU. */
export const inventoryActivity: Handler = (ctx, req) => {
  const op = 'GET Inventories/Activity';
  const { supplierId, warehouseCode, sub, sku } = inventoryParams(ctx, req, op);
  const activeOnly = flag(q(ctx, req, op, 'activeOnly'), 'activeOnly', true);
  const today = ctx.world.zone.wallDate(ctx.now);
  const range = dayRange(q(ctx, req, op, 'beginDate'), q(ctx, req, op, 'endDate'));
  const rows = [...ctx.world.inventory.values()].filter(
    (r) =>
      r.supplierId === supplierId &&
      (warehouseCode === undefined || r.warehouseCode === warehouseCode) &&
      (sub === undefined || r.subInventoryCode === sub) &&
      (sku === undefined || r.sku === sku),
  );
  const out = [];
  for (const day of daysBetween(range.begin ?? range.end ?? today, range.end ?? today)) {
    for (const row of rows) {
      const a = ctx.world.activity.get(
        `${day}|${inventoryKey(row.supplierId, row.warehouseCode, row.subInventoryCode, row.sku)}`,
      );
      if (a === undefined && (activeOnly || row.dropped)) continue;
      out.push(activityRecord(ctx.world, row, a));
    }
  }
  return ok(out);
};
