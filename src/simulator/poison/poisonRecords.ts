import type { Invoice, OwnedInventory, ShipmentReturn, ShipmentUpdate } from '../../api/records/index.ts';
import { ownedInventoryRecord } from '../records/inventory.ts';
import { LazyRows, type RouteContext, type SimRequest } from '../routes/context.ts';
import { ownedInventoryFilter } from '../routes/inventory.ts';
import { q } from '../routes/params.ts';
import {
  withDeepMember,
  withNulEvent,
  withOverflowingCount,
  withOversizedNumber,
  withSurrogateCarrier,
  withWrongTypedQuantity,
} from './patch.ts';
import { type ResolvedTargets, vanishingRowAt, WRONG_TYPE_AFTER } from './targets.ts';

/**
 * Which served record is poisoned, and how: each record of a list answer (and of the truth) that is
 * a target comes back patched, every other one as it was.
 */

/** The NUL shipment gets its tracking event's NUL, the surrogate shipment its carrier's surrogate. */
export function poisonShipment(
  r: ShipmentUpdate,
  t: ResolvedTargets,
  iso: (ms: number) => string,
): ShipmentUpdate {
  const id = r?.header?.containerId;
  if (t.nul && id === t.nul.containerId) return withNulEvent(r, iso(t.nul.eventTime));
  if (t.surrogate && id === t.surrogate.containerId) return withSurrogateCarrier(r);
  return r;
}

/** The overflow invoice gets an orderCount outside int32, the oversized one an 80 KB number. */
export function poisonInvoice(r: Invoice, t: ResolvedTargets): Invoice {
  if (r.invoiceNumber === t.overflowInvoice?.invoiceNumber) return withOverflowingCount(r);
  if (r.invoiceNumber === t.oversizedInvoice?.invoiceNumber) return withOversizedNumber(r);
  return r;
}

/** The deep return gets a member nested 8,000 levels deep. */
export function poisonReturn(r: ShipmentReturn, t: ResolvedTargets): ShipmentReturn {
  return r.shipReturnId === t.deepReturn?.shipReturnId ? withDeepMember(r) : r;
}

/** The wrong-typed inventory row gets its quantity as a word, from a day after the start. */
export function poisonInventoryRow(
  supplierId: string,
  r: OwnedInventory,
  t: ResolvedTargets,
  now: number,
): OwnedInventory | Record<string, unknown> {
  if (now < t.start + WRONG_TYPE_AFTER) return r;
  const key = `${supplierId}|${r.warehouseCode}|${r.subInventoryCode}|${r.sku}`;
  return key === t.wrongTypeKey ? withWrongTypedQuantity(r) : r;
}

/** A list answer's rows as the poison world serves them: each target patched, the vanishing row added while due. */
export function poisonListRows(
  ctx: RouteContext,
  req: SimRequest,
  payload: unknown,
  t: ResolvedTargets,
): unknown {
  const z = ctx.world.zone;
  switch (req.op) {
    case 'GET Shipments/Updates': {
      const patch = (r: unknown) => poisonShipment(r as ShipmentUpdate, t, z.iso.bind(z));
      if (payload instanceof LazyRows) return new LazyRows(payload.length, (i) => patch(payload.at(i)));
      return (payload as ShipmentUpdate[]).map(patch);
    }
    case 'GET Finances/invoices':
      return (payload as Invoice[]).map((r) => poisonInvoice(r, t));
    case 'GET Shipments/Returns':
      return (payload as ShipmentReturn[]).map((r) => poisonReturn(r, t));
    case 'GET Inventories/Owned': {
      const supplierId = q(ctx, req, 'GET Inventories/Owned', 'supplierId') ?? '';
      const rows = (payload as OwnedInventory[]).map((r) => poisonInventoryRow(supplierId, r, t, ctx.now));
      const vanishing = t.vanishing && vanishingRowAt(t.vanishing, t.start, ctx.now);
      if (vanishing && ownedInventoryFilter(ctx, req)(vanishing))
        rows.push(ownedInventoryRecord(ctx.world, vanishing));
      return rows;
    }
    default:
      return payload;
  }
}
