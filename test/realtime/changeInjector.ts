import { payInvoice } from '../../src/simulator/evolve/invoices.ts';
import { createOrder } from '../../src/simulator/evolve/orders.ts';
import { openReturn } from '../../src/simulator/evolve/returns.ts';
import { shipOrder } from '../../src/simulator/evolve/shipments.ts';
import { generateTransferIn, generateTransferOut } from '../../src/simulator/evolve/transfers.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import { Rng } from '../../src/simulator/rng.ts';
import { orderKey } from '../../src/simulator/world/state.ts';

/**
 * Changes made to a running simulator's world at the real moment they are asked for, visible to the
 * next request at once (the simulator's own clock only moves the world a minute at a time, so its
 * changes become visible up to a minute after their stamp; these are visible at their stamp).
 */

/** The event families the realtime test follows, by the event type prefix of their webhooks. */
export const FAMILIES = [
  'shipment',
  'inventory',
  'return',
  'invoice',
  'transfer_in',
  'transfer_out',
] as const;
export type Family = (typeof FAMILIES)[number];

/** One change made upstream: its family, the webhook subject key it shows under, and when (real time). */
export interface Injected {
  family: Family;
  key: string;
  at: number;
}

/** Makes one change of `family` now; the subject key its event will carry. */
export function inject(sim: RunningSimulator, family: Family, rng: Rng): Injected {
  const world = sim.world;
  // The simulator's clock starts on a whole minute, so it may run up to a minute behind real time:
  // records are stamped with it (never in the future), the change is timed from the real moment.
  const at = sim.clock.now();
  const madeAt = Date.now();
  const before = world.history.length;
  const account = world.accounts[0]!;
  const supplierId = world.suppliers[0]!.id;
  if (family === 'shipment') {
    // A new order shipped at once (one with a hold does not ship: draw again).
    for (let tries = 0; tries < 20; tries++) {
      const order = createOrder(world, rng, account, at);
      if (order) shipOrder(world, rng, orderKey(account.number, order.orderNumber), at);
      if (newEntry(world.history.slice(before), 'shipment.created')) break;
    }
  } else if (family === 'inventory') {
    // Rows shipments do not draw from (QA, DMG) where there are some, so that a shipment's change
    // to the same row cannot pass for this one's delivery.
    const rows = [...world.inventory.values()].filter(
      (r) => r.supplierId === supplierId && !r.dropped && r.qtyOnHand > 2,
    );
    const unshipped = rows.filter((r) => r.subInventoryCode !== 'FG');
    world.moveStock(at, rng.pick(unshipped.length > 0 ? unshipped : rows), -1, 'qtyAdjusted');
  } else if (family === 'return') {
    const returned = new Set([...world.returns.values()].map((r) => r.containerId));
    const shipments = [...world.shipments.values()].filter(
      (s) => s.accountNumber === account.number && !returned.has(s.containerId),
    );
    openReturn(world, rng, rng.pick(shipments).containerId, at);
  } else if (family === 'invoice') {
    const open = [...world.invoices.values()].filter(
      (i) => i.accountNumber === account.number && i.totalAmount - i.paymentsReceived > 1,
    );
    // Half the balance (one more payment pending), so an invoice stays open for the next change.
    payInvoice(world, rng.pick(open).invoiceNumber, at, 1);
  } else if (family === 'transfer_in') {
    generateTransferIn(world, rng, supplierId, at);
  } else {
    generateTransferOut(world, rng, supplierId, at);
  }
  const kind = {
    shipment: 'shipment.created',
    inventory: 'inventory.changed',
    return: 'return.created',
    invoice: 'invoice.payment',
    transfer_in: 'transfer_in.created',
    transfer_out: 'transfer_out.created',
  }[family];
  const entry = newEntry(world.history.slice(before), kind);
  if (!entry) throw new Error(`no ${family} change could be made`);
  // The simulator's keys join parts with '|'; webhook subjects with ':'.
  return { family, key: entry.key.replaceAll('|', ':'), at: madeAt };
}

function newEntry(entries: readonly { kind: string; key: string }[], kind: string) {
  return entries.find((e) => e.kind === kind);
}

export { Rng };
