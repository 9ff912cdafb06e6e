import { Rng } from '../rng.ts';
import type { Task, World } from '../world/state.ts';
import { adjustInventory } from './adjustments.ts';
import { issueInvoices, payInvoice } from './invoices.ts';
import { createOrder, releaseHold } from './orders.ts';
import { DAY_MINUTES, MINUTE, type Rates } from './rates.ts';
import { advanceReturn, openReturn } from './returns.ts';
import { revealEvent, shipOrder } from './shipments.ts';
import {
  advanceTransferIn,
  advanceTransferOut,
  generateTransferIn,
  generateTransferOut,
} from './transfers.ts';

/**
 * Runs every simulated minute up to (not including) the minute of `now`. Each minute draws from its
 * own stream (seed, minute), so the world depends on the seed and simulated time only, never on how
 * the clock was advanced (one jump of a day or 1,440 jumps of a minute give the same world).
 */
export function evolveTo(world: World, now: number, rates: Rates): void {
  const last = Math.floor(now / MINUTE) - 1;
  while (world.processedMinute < last) runMinute(world, world.processedMinute + 1, rates);
}

function runMinute(world: World, minute: number, rates: Rates): void {
  world.processedMinute = minute;
  const rng = Rng.of(world.seed, 'minute', minute);
  const at = minute * MINUTE + rng.int(0, 59) * 1000;
  const tasks = world.agenda.get(minute);
  if (tasks) {
    world.agenda.delete(minute);
    for (const task of tasks) runTask(world, rng, task, at, rates);
  }
  if (world.zone.wallMinute(minute * MINUTE).endsWith('T00:00')) issueInvoices(world, rng, minute * MINUTE);
  for (const account of world.accounts) {
    if (rng.chance(rates.ordersPerDay / DAY_MINUTES)) createOrder(world, rng, account, at);
  }
  for (const supplier of world.suppliers) {
    if (rng.chance(rates.transfersInPerDay / DAY_MINUTES)) generateTransferIn(world, rng, supplier.id, at);
    if (rng.chance(rates.transfersOutPerDay / DAY_MINUTES)) generateTransferOut(world, rng, supplier.id, at);
  }
  if (rng.chance(6 / DAY_MINUTES)) adjustInventory(world, rng, at);
}

function runTask(world: World, rng: Rng, task: Task, at: number, rates: Rates): void {
  switch (task.kind) {
    case 'shipOrder':
      shipOrder(world, rng, task.orderKey, at, rates);
      return;
    case 'releaseHold':
      releaseHold(world, task.orderKey, task.hold, at);
      return;
    case 'trackingEvent':
      revealEvent(world, rng, task.containerId, task.event, at, rates);
      return;
    case 'openReturn':
      openReturn(world, rng, task.containerId, at);
      return;
    case 'returnStatus':
      advanceReturn(world, rng, task.shipReturnId, task.status, at);
      return;
    case 'transferIn':
      advanceTransferIn(world, rng, task.supplierId, task.orderNumber, task.step, at);
      return;
    case 'transferOut':
      advanceTransferOut(world, rng, task.supplierId, task.orderNumber, task.status, at);
      return;
    case 'payInvoice':
      payInvoice(world, task.invoiceNumber, at, pendingPayments(world, task.invoiceNumber));
      return;
  }
}

/** How many payments of an invoice are still planned after this one. */
function pendingPayments(world: World, invoiceNumber: string): number {
  let n = 0;
  for (const [minute, tasks] of world.agenda) {
    if (minute <= world.processedMinute) continue;
    for (const t of tasks) if (t.kind === 'payInvoice' && t.invoiceNumber === invoiceNumber) n++;
  }
  return n;
}
