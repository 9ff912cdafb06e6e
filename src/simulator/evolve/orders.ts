import type { Rng } from '../rng.ts';
import type { Account, Order, OrderLine } from '../types.ts';
import { FIRST_NAMES, LAST_NAMES, PLACES, STREETS } from '../world/names.ts';
import { orderKey, type World } from '../world/state.ts';
import { minuteOf } from './rates.ts';
import { shipOrder } from './shipments.ts';

const ORDER_TYPES = ['CLUB', 'STND', 'DAILY', 'SPCL', 'VC', 'CORP'];

/** A consumer order placed at `at`, reserving stock in one warehouse; shipping is planned. */
export function createOrder(world: World, rng: Rng, account: Account, at: number): Order | undefined {
  const rows = [...world.inventory.values()].filter(
    (r) =>
      r.supplierId === account.supplierId && r.subInventoryCode === 'FG' && r.qtyOnHand - r.qtyOnOrders > 0,
  );
  if (rows.length === 0) return undefined;
  const warehouseCode = rng.pick(rows).warehouseCode;
  const candidates = rows.filter((r) => r.warehouseCode === warehouseCode);
  const lines: OrderLine[] = [];
  const count = rng.int(1, Math.min(3, candidates.length));
  for (let i = 0; i < count; i++) {
    const row = candidates[(rng.int(0, candidates.length - 1) + i) % candidates.length]!;
    if (lines.some((l) => l.sku === row.sku)) continue;
    const product = world.products.get(`${row.supplierId}|${row.sku}`);
    const quantity = rng.int(1, 6);
    row.qtyOnOrders += quantity;
    lines.push({
      lineNumber: lines.length + 1,
      sku: row.sku,
      quantity,
      quantityShipped: 0,
      unitPrice: product?.retailPrice ?? 20,
      subInventoryCode: 'FG',
    });
  }
  world.seq.order += 1;
  const place = rng.pick(PLACES);
  const first = rng.pick(FIRST_NAMES);
  const last = rng.pick(LAST_NAMES);
  const orderTypeCode = rng.pick(ORDER_TYPES);
  const order: Order = {
    accountNumber: account.number,
    supplierId: account.supplierId,
    orderNumber: `W${account.number.slice(3)}-${String(world.seq.order).padStart(6, '0')}`,
    providerOrderNumber: String(70_000_000 + world.seq.order),
    warehouseCode,
    orderTypeCode,
    createdAt: at,
    requestedShipDate: at + (orderTypeCode === 'CLUB' ? rng.int(1, 3) * 3_600_000 : 0),
    shippedAt: null,
    cancelledAt: null,
    status: null,
    lines,
    holds: [],
    messages: [{ type: 'INFO', text: 'Order received', at }],
    consumer: {
      firstName: first,
      lastName: last,
      address1: `${rng.int(10, 9999)} ${rng.pick(STREETS)}`,
      city: place.city,
      stateCode: place.state,
      stateName: place.stateName,
      postalCode: place.zip,
      email: `${first}.${last}@example.com`.toLowerCase(),
      phone: `555-01${rng.int(10, 99)}`,
    },
    giftMessage: rng.chance(0.2) ? 'Happy birthday!' : null,
    containerIds: [],
    updatedAt: at,
  };
  const key = orderKey(order.accountNumber, order.orderNumber);
  world.orders.set(key, order);
  world.log(at, 'order.created', key, { warehouseCode, lines: lines.length });
  let shipMinute = minuteOf(Math.max(at, order.requestedShipDate)) + rng.int(20, 360);
  if (rng.chance(0.15)) {
    order.holds.push({
      name: rng.pick(['AGE_VERIFY', 'ADDRESS_CHECK']),
      description: 'Held for review',
      createdAt: at,
      releasedAt: null,
    });
    world.log(at, 'order.hold_added', key, { hold: order.holds[0]?.name });
    const release = minuteOf(at) + rng.int(30, 300);
    world.schedule(release, { kind: 'releaseHold', orderKey: key, hold: 0 });
    shipMinute = Math.max(shipMinute, release + rng.int(10, 120));
  }
  world.schedule(shipMinute, { kind: 'shipOrder', orderKey: key });
  return order;
}

/** Releases a hold; the order ships at its planned time. */
export function releaseHold(world: World, key: string, hold: number, at: number): void {
  const order = world.orders.get(key);
  const h = order?.holds[hold];
  if (!order || !h || h.releasedAt !== null) return;
  h.releasedAt = at;
  order.updatedAt = at;
  order.messages.push({ type: 'INFO', text: `Hold ${h.name} released`, at });
  world.log(at, 'order.hold_released', key, { hold: h.name });
}

/** Whether an order can still be cancelled. */
export function isCancellable(order: Order): boolean {
  return order.shippedAt === null && order.cancelledAt === null;
}

/** Cancels an order that has not shipped, giving back its reservations. */
export function cancelOrder(world: World, order: Order, at: number): void {
  order.cancelledAt = at;
  order.status = 'CANCELLED';
  order.updatedAt = at;
  for (const line of order.lines) {
    const row = world.stockRow(order.supplierId, order.warehouseCode, line.subInventoryCode, line.sku);
    row.qtyOnOrders = Math.max(0, row.qtyOnOrders - line.quantity);
  }
  order.messages.push({ type: 'INFO', text: 'Order cancelled', at });
  world.log(at, 'order.cancelled', orderKey(order.accountNumber, order.orderNumber), {});
}

export { shipOrder };
