import type { Rng } from '../rng.ts';
import type { TransferIn, TransferOut } from '../types.ts';
import type { World } from '../world/state.ts';
import { PICKUP_SITES, WAREHOUSE_LIST } from '../world/warehouses.ts';
import { minuteOf } from './rates.ts';

/** Registers a new IN in DRAFT (from the generator or from POST /Transfers/INs). */
export function addTransferIn(
  world: World,
  at: number,
  fields: Omit<
    TransferIn,
    'rowId' | 'orderNumber' | 'status' | 'createdAt' | 'submittedAt' | 'closedAt' | 'updatedAt' | 'notes'
  >,
): TransferIn {
  world.seq.transferIn += 1;
  const transfer: TransferIn = {
    ...fields,
    rowId: 3000 + world.seq.transferIn,
    orderNumber: `IN-${String(100_000 + world.seq.transferIn)}`,
    status: 'DRAFT',
    createdAt: at,
    submittedAt: null,
    closedAt: null,
    updatedAt: at,
    notes: [{ typeCode: 'CREATED', text: 'Request created', at }],
  };
  world.transfersIn.set(`${transfer.supplierId}|${transfer.orderNumber}`, transfer);
  world.log(at, 'transfer_in.created', `${transfer.supplierId}|${transfer.orderNumber}`, { status: 'DRAFT' });
  return transfer;
}

/**
 * `count` DRAFT INs per supplier created over [from, to), alternating delivery methods, in
 * `warehouse` (default: spread over all), never submitted (as created through the API): an
 * open-status list as long as a test needs. Their lines name every sellable product in turn.
 */
export function addDraftTransfersIn(
  world: World,
  count: number,
  from: number,
  to: number,
  warehouse?: string,
): void {
  if (!Number.isInteger(count) || count < 0)
    throw new Error(`volume.draftTransfersIn must be a whole number >= 0, got ${count}`);
  for (const supplier of world.suppliers) {
    const products = world.sellable(supplier.id);
    for (let i = 0; i < count && products.length > 0; i++) {
      const pickup = i % 2 === 0;
      const product = products[i % products.length] as { sku: string };
      const at = from + Math.floor(((to - from) * i) / count / 60_000) * 60_000;
      addTransferIn(world, at, {
        supplierId: supplier.id,
        referenceNumber: `DRAFT-${i + 1}`,
        warehouseCode: warehouse ?? (WAREHOUSE_LIST[i % WAREHOUSE_LIST.length] as string),
        deliveryMethodCode: pickup ? 'PROVIDER_PICKUP' : 'CLIENT_DROPOFF',
        pickupSiteId: pickup ? (PICKUP_SITES[0] as { id: number }).id : null,
        expectedDate: at + 7 * 86_400_000,
        createdBy: 'api',
        lines: [
          {
            lineNumber: 1,
            sku: product.sku,
            subInventoryCode: 'FG',
            qtyOrdered: 24,
            qtyReceived: 0,
            updatedAt: at,
          },
        ],
      });
    }
  }
}

/** The supplier sends stock: an IN that the generator submits, processes, receives and closes. */
export function generateTransferIn(world: World, rng: Rng, supplierId: string, at: number): void {
  const products = world.sellable(supplierId);
  if (products.length === 0) return;
  const pickup = rng.chance(0.4);
  const lines = Array.from({ length: rng.int(1, 3) }, (_, i) => ({
    lineNumber: i + 1,
    sku: (products[(rng.int(0, products.length - 1) + i) % products.length] as { sku: string }).sku,
    subInventoryCode: 'FG',
    qtyOrdered: rng.int(2, 20) * 12,
    qtyReceived: 0,
    updatedAt: at,
  }));
  const transfer = addTransferIn(world, at, {
    supplierId,
    referenceNumber: `REF-${rng.int(10_000, 99_999)}`,
    warehouseCode: rng.pick(WAREHOUSE_LIST),
    deliveryMethodCode: pickup ? 'PROVIDER_PICKUP' : 'CLIENT_DROPOFF',
    pickupSiteId: pickup ? rng.pick(PICKUP_SITES).id : null,
    expectedDate: at + rng.int(2, 6) * 86_400_000,
    createdBy: 'supplier.portal',
    lines,
  });
  world.schedule(minuteOf(at) + rng.int(30, 240), {
    kind: 'transferIn',
    supplierId,
    orderNumber: transfer.orderNumber,
    step: 'SUBMIT',
  });
}

/** One step of an IN's life: SUBMIT -> PROCESS -> RECEIVE (repeated, qtyReceived rising) -> CLOSED. */
export function advanceTransferIn(
  world: World,
  rng: Rng,
  supplierId: string,
  orderNumber: string,
  step: string,
  at: number,
): void {
  const t = world.transfersIn.get(`${supplierId}|${orderNumber}`);
  if (!t || t.status === 'CANCELLED' || t.status === 'CLOSED') return;
  const key = `${supplierId}|${orderNumber}`;
  const from = t.status;
  t.updatedAt = at;
  if (step === 'SUBMIT') {
    t.status = 'SUBMITTED';
    t.submittedAt = at;
    for (const line of t.lines)
      world.stockRow(supplierId, t.warehouseCode, line.subInventoryCode, line.sku).qtyOnIns +=
        line.qtyOrdered;
    world.schedule(minuteOf(at) + rng.int(12 * 60, 3 * 1440), {
      kind: 'transferIn',
      supplierId,
      orderNumber,
      step: 'PROCESS',
    });
  } else if (step === 'PROCESS') {
    t.status = 'PROCESSING';
    t.notes.push({ typeCode: 'DOCK', text: 'Arrived at dock', at });
    world.schedule(minuteOf(at) + rng.int(60, 8 * 60), {
      kind: 'transferIn',
      supplierId,
      orderNumber,
      step: 'RECEIVE',
    });
  } else {
    receive(world, rng, t, at);
    const done = t.lines.every((l) => l.qtyReceived >= l.qtyOrdered);
    if (done) {
      t.status = 'CLOSED';
      t.closedAt = at;
      t.notes.push({ typeCode: 'CLOSE', text: 'All lines received', at });
    } else {
      world.schedule(minuteOf(at) + rng.int(2 * 60, 10 * 60), {
        kind: 'transferIn',
        supplierId,
        orderNumber,
        step: 'RECEIVE',
      });
    }
  }
  if (t.status !== from) world.log(at, 'transfer_in.status_changed', key, { from, to: t.status });
}

function receive(world: World, rng: Rng, t: TransferIn, at: number): void {
  for (const line of t.lines) {
    const open = line.qtyOrdered - line.qtyReceived;
    if (open <= 0) continue;
    const qty = rng.chance(0.5) ? open : Math.max(1, Math.floor(open * rng.next()));
    line.qtyReceived += qty;
    line.updatedAt = at;
    const row = world.stockRow(t.supplierId, t.warehouseCode, line.subInventoryCode, line.sku);
    row.qtyOnIns = Math.max(0, row.qtyOnIns - qty);
    world.moveStock(at, row, qty, 'qtyReceived');
    world.log(at, 'transfer_in.received', `${t.supplierId}|${t.orderNumber}`, {
      lineNumber: line.lineNumber,
      qtyReceived: line.qtyReceived,
    });
  }
}

/** Cancels a DRAFT or SUBMITTED IN, giving back the expected stock. */
export function cancelTransferIn(world: World, t: TransferIn, at: number): void {
  if (t.status === 'SUBMITTED') {
    for (const line of t.lines) {
      const row = world.stockRow(t.supplierId, t.warehouseCode, line.subInventoryCode, line.sku);
      row.qtyOnIns = Math.max(0, row.qtyOnIns - line.qtyOrdered);
    }
  }
  const from = t.status;
  t.status = 'CANCELLED';
  t.updatedAt = at;
  t.notes.push({ typeCode: 'CANCEL', text: 'Cancelled by request', at });
  world.log(at, 'transfer_in.status_changed', `${t.supplierId}|${t.orderNumber}`, { from, to: 'CANCELLED' });
}

export const isTransferInCancellable = (t: TransferIn): boolean =>
  t.status === 'DRAFT' || t.status === 'SUBMITTED';

/** The supplier pulls stock out: OPEN -> RELEASED -> SHIPPED (or CANCELLED). */
export function generateTransferOut(world: World, rng: Rng, supplierId: string, at: number): void {
  const rows = [...world.inventory.values()].filter(
    (r) => r.supplierId === supplierId && r.subInventoryCode === 'FG' && r.qtyOnHand >= 12,
  );
  if (rows.length === 0) return;
  const row = rng.pick(rows);
  world.seq.transferOut += 1;
  const out: TransferOut = {
    supplierId,
    orderNumber: `OUT-${String(200_000 + world.seq.transferOut)}`,
    referenceNumber: `PO-${rng.int(1000, 9999)}`,
    warehouseCode: row.warehouseCode,
    orderedAt: at,
    requestAt: at + rng.int(1, 3) * 86_400_000,
    priority: rng.pick(['NORMAL', 'HIGH']),
    status: 'OPEN',
    lines: [{ sku: row.sku, subInventoryCode: 'FG', quantity: Math.min(row.qtyOnHand, rng.int(1, 4) * 12) }],
    updatedAt: at,
  };
  world.transfersOut.set(`${supplierId}|${out.orderNumber}`, out);
  world.log(at, 'transfer_out.created', `${supplierId}|${out.orderNumber}`, { status: 'OPEN' });
  const next = rng.chance(0.1) ? 'CANCELLED' : 'RELEASED';
  world.schedule(minuteOf(at) + rng.int(120, 720), {
    kind: 'transferOut',
    supplierId,
    orderNumber: out.orderNumber,
    status: next,
  });
}

/** Moves an OUT on; SHIPPED takes the stock out of the warehouse. */
export function advanceTransferOut(
  world: World,
  rng: Rng,
  supplierId: string,
  orderNumber: string,
  status: string,
  at: number,
): void {
  const out = world.transfersOut.get(`${supplierId}|${orderNumber}`);
  if (!out || out.status === 'SHIPPED' || out.status === 'CANCELLED') return;
  const from = out.status;
  out.status = status;
  out.updatedAt = at;
  if (status === 'RELEASED') {
    world.schedule(minuteOf(at) + rng.int(120, 1440), {
      kind: 'transferOut',
      supplierId,
      orderNumber,
      status: 'SHIPPED',
    });
  } else if (status === 'SHIPPED') {
    for (const line of out.lines) {
      const row = world.stockRow(supplierId, out.warehouseCode, line.subInventoryCode, line.sku);
      world.moveStock(at, row, -line.quantity, 'qtyTransferredOut');
      if (row.qtyOnHand === 0 && row.qtyOnOrders === 0 && row.qtyOnIns === 0) row.dropped = true;
    }
  }
  world.log(at, 'transfer_out.status_changed', `${supplierId}|${orderNumber}`, { from, to: status });
}
