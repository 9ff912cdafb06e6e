import type { Rng } from '../rng.ts';
import type { Shipment, TrackingEvent } from '../types.ts';
import { HUBS } from '../world/names.ts';
import type { World } from '../world/state.ts';
import { WAREHOUSES } from '../world/warehouses.ts';
import { DEFAULT_RATES, minuteOf, type Rates } from './rates.ts';

const HOUR = 3_600_000;

/** Ships an order: stock leaves, a shipment appears (SHIPPED) and its carrier scans are planned. */
export function shipOrder(
  world: World,
  rng: Rng,
  key: string,
  at: number,
  rates: Rates = DEFAULT_RATES,
): void {
  const order = world.orders.get(key);
  if (!order || order.cancelledAt !== null || order.shippedAt !== null) return;
  if (order.holds.some((h) => h.releasedAt === null)) {
    world.schedule(minuteOf(at) + 60, { kind: 'shipOrder', orderKey: key });
    return;
  }
  const lines: Shipment['lines'] = [];
  for (const line of order.lines) {
    const row = world.stockRow(order.supplierId, order.warehouseCode, line.subInventoryCode, line.sku);
    row.qtyOnOrders = Math.max(0, row.qtyOnOrders - line.quantity);
    line.quantityShipped = -world.moveStock(at, row, -line.quantity, 'qtyShipped');
    if (row.qtyOnHand === 0 && row.qtyOnOrders === 0 && row.qtyOnIns === 0 && rng.chance(0.5))
      row.dropped = true;
    if (line.quantityShipped > 0)
      lines.push({ lineNumber: line.lineNumber, sku: line.sku, quantity: line.quantityShipped });
  }
  order.shippedAt = at;
  order.updatedAt = at;
  if (lines.length === 0) {
    // Nothing on hand: the order ships empty-handed as an exception rather than waiting forever.
    order.status = 'EXCEPTION';
    order.messages.push({ type: 'WARN', text: 'Backordered: no stock on hand', at });
    world.log(at, 'order.status_changed', key, { status: 'EXCEPTION' });
    return;
  }
  world.seq.shipment += 1;
  const containerId = `C${String(10_000_000 + world.seq.shipment)}`;
  const carrierName = rng.chance(0.6) ? 'CarrierA' : 'CarrierB';
  const shipment: Shipment = {
    containerId,
    shipmentKey: 500_000 + world.seq.shipment,
    accountNumber: order.accountNumber,
    orderNumber: order.orderNumber,
    warehouseCode: order.warehouseCode,
    shipDate: at,
    carrierName,
    trackingNumber: `${carrierName === 'CarrierA' ? '1Z' : '9400'}${String(rng.int(100_000_000, 999_999_999))}${world.seq.shipment}`,
    status: 'SHIPPED',
    lines,
    events: [],
    planned: planEvents(rng, at, order.consumer.city, order.consumer.stateCode, order.warehouseCode),
    updatedAt: at,
  };
  world.shipments.set(containerId, shipment);
  order.containerIds.push(containerId);
  order.status = 'SHIPPED';
  order.messages.push({ type: 'INFO', text: `Shipped in ${containerId}`, at });
  world.log(at, 'shipment.created', containerId, { orderNumber: order.orderNumber, status: 'SHIPPED' });
  world.log(at, 'order.status_changed', key, { status: 'SHIPPED' });
  shipment.planned.forEach((event, index) => {
    const late = rng.chance(rates.lateEventShare);
    const visibleAt = event.eventTime + (late ? rng.int(60, 360) * 60_000 : rng.int(1, 10) * 60_000);
    world.schedule(minuteOf(visibleAt), { kind: 'trackingEvent', containerId, event: index });
  });
}

function planEvents(
  rng: Rng,
  shippedAt: number,
  city: string,
  state: string,
  warehouse: string,
): TrackingEvent[] {
  const origin = WAREHOUSES[warehouse] ?? warehouse;
  let t = shippedAt + rng.int(1, 4) * HOUR;
  const events: TrackingEvent[] = [
    { eventTime: t, city: origin, state: 'CA', description: 'Picked up by carrier', status: 'IN_TRANSIT' },
  ];
  const hubs = rng.int(1, 3);
  for (let i = 0; i < hubs; i++) {
    const hub = rng.pick(HUBS);
    t += rng.int(3, 14) * HOUR + rng.int(0, 59) * 60_000;
    events.push({
      eventTime: t,
      city: hub.city,
      state: hub.state,
      description: rng.pick(['Arrived at facility', 'Departed facility', 'In transit']),
      status: null,
    });
  }
  t += rng.int(4, 20) * HOUR + rng.int(0, 59) * 60_000;
  const outcome = rng.next();
  if (outcome < 0.82) {
    events.push({ eventTime: t, city, state, description: 'Delivered', status: 'DELIVERED' });
  } else if (outcome < 0.94) {
    events.push({
      eventTime: t,
      city,
      state,
      description: 'Delivery exception: recipient not available',
      status: 'EXCEPTION',
    });
    if (rng.chance(0.5)) {
      events.push({
        eventTime: t + rng.int(18, 30) * HOUR,
        city,
        state,
        description: 'Delivered',
        status: 'DELIVERED',
      });
    }
  } else {
    events.push({
      eventTime: t,
      city,
      state,
      description: 'Refused, returning to sender',
      status: 'EXCEPTION',
    });
    events.push({
      eventTime: t + rng.int(24, 72) * HOUR,
      city: origin,
      state: 'CA',
      description: 'Returned to sender',
      status: 'RETURNED',
    });
  }
  return events.map((e) => ({ ...e, eventTime: Math.floor(e.eventTime / 1000) * 1000 }));
}

/** A planned scan becomes visible; the shipment's status follows its latest event by eventTime. */
export function revealEvent(
  world: World,
  rng: Rng,
  containerId: string,
  index: number,
  at: number,
  rates: Rates = DEFAULT_RATES,
): void {
  const shipment = world.shipments.get(containerId);
  const event = shipment?.planned[index];
  if (!shipment || !event) return;
  const position = shipment.events.findIndex((e) => e.eventTime > event.eventTime);
  if (position === -1) shipment.events.push(event);
  else shipment.events.splice(position, 0, event);
  const before = shipment.status;
  const latestStatus = [...shipment.events].reverse().find((e) => e.status !== null)?.status;
  shipment.status = latestStatus ?? shipment.status;
  shipment.updatedAt = at;
  world.log(at, 'shipment.tracking_event', containerId, {
    eventTime: new Date(event.eventTime).toISOString(),
    description: event.description,
    late: at - event.eventTime > 30 * 60_000,
  });
  if (shipment.status === before) return;
  world.log(at, 'shipment.status_changed', containerId, { from: before, to: shipment.status });
  const order = world.orders.get(`${shipment.accountNumber}|${shipment.orderNumber}`);
  if (order) {
    order.status = shipment.status;
    order.updatedAt = at;
    world.log(at, 'order.status_changed', `${order.accountNumber}|${order.orderNumber}`, {
      status: order.status,
    });
  }
  const finalEvent = index === shipment.planned.length - 1;
  if (
    shipment.status === 'RETURNED' ||
    (finalEvent && shipment.status === 'DELIVERED' && rng.chance(rates.returnShare))
  ) {
    world.schedule(minuteOf(at) + rng.int(6 * 60, 4 * 1440), { kind: 'openReturn', containerId });
  }
}
