import type { Rng } from '../rng.ts';
import type { Return } from '../types.ts';
import { RESOLUTIONS, RETURN_REASONS } from '../world/names.ts';
import type { World } from '../world/state.ts';
import { minuteOf } from './rates.ts';

/** A shipment comes back: a NEW return, then IN_PROCESS, then RESOLVED. */
export function openReturn(world: World, rng: Rng, containerId: string, at: number): void {
  const shipment = world.shipments.get(containerId);
  if (!shipment) return;
  for (const existing of world.returns.values()) if (existing.containerId === containerId) return;
  world.seq.ret += 1;
  const shipReturnId = 90_000 + world.seq.ret;
  const refused = shipment.status === 'RETURNED';
  const ret: Return = {
    shipReturnId,
    shipmentKey: shipment.shipmentKey,
    containerId,
    accountNumber: shipment.accountNumber,
    orderNumber: shipment.orderNumber,
    returnDate: at,
    reasonCode: refused ? rng.pick(['REF', 'UND', 'AGE']) : 'DMG',
    status: 'NEW',
    resolutionCode: null,
    trackingNumber: `RT${shipment.trackingNumber}`,
    lines: shipment.lines.map((line) => {
      const damaged = refused ? 0 : rng.int(0, Math.min(1, line.quantity));
      return {
        lineNumber: line.lineNumber,
        sku: line.sku,
        quantityShipped: line.quantity,
        quantityReturned: line.quantity,
        quantityDamaged: damaged,
        personalization: rng.chance(0.2) ? 'Happy anniversary' : null,
      };
    }),
    updatedAt: at,
  };
  world.returns.set(shipReturnId, ret);
  world.log(at, 'return.created', String(shipReturnId), { containerId, status: 'NEW' });
  const processing = minuteOf(at) + rng.int(6 * 60, 2 * 1440);
  world.schedule(processing, { kind: 'returnStatus', shipReturnId, status: 'IN_PROCESS' });
  world.schedule(processing + rng.int(1440, 4 * 1440), {
    kind: 'returnStatus',
    shipReturnId,
    status: 'RESOLVED',
  });
}

/** Moves a return on; resolving it books the goods back into stock (damaged ones into DMG). */
export function advanceReturn(
  world: World,
  rng: Rng,
  shipReturnId: number,
  status: string,
  at: number,
): void {
  const ret = world.returns.get(shipReturnId);
  if (!ret || ret.status === 'RESOLVED') return;
  const from = ret.status;
  ret.status = status;
  ret.updatedAt = at;
  if (status === 'RESOLVED') {
    ret.resolutionCode = rng.pick(Object.keys(RESOLUTIONS));
    const shipment = world.shipments.get(ret.containerId);
    const supplierId = world.supplierOf(ret.accountNumber)?.id;
    if (shipment && supplierId) {
      for (const line of ret.lines) {
        const good = line.quantityReturned - line.quantityDamaged;
        if (good > 0)
          world.moveStock(
            at,
            world.stockRow(supplierId, shipment.warehouseCode, 'FG', line.sku),
            good,
            'qtyReturned',
          );
        if (line.quantityDamaged > 0) {
          world.moveStock(
            at,
            world.stockRow(supplierId, shipment.warehouseCode, 'DMG', line.sku),
            line.quantityDamaged,
            'qtyDamaged',
          );
        }
      }
    }
  }
  world.log(at, 'return.status_changed', String(shipReturnId), { from, to: status });
}

export const returnReasonName = (code: string): string => RETURN_REASONS[code] ?? code;
