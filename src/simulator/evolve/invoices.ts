import type { Rng } from '../rng.ts';
import type { Invoice } from '../types.ts';
import type { World } from '../world/state.ts';
import { minuteOf } from './rates.ts';

/**
 * At each Pacific midnight, every account is billed for the orders shipped the day before
 * (DIRECT, plus a CARRIER invoice), and for storage on the 1st of the month; invoices are paid
 * some days later (balanceDue goes to 0, sometimes in two payments).
 */
export function issueInvoices(world: World, rng: Rng, at: number): void {
  const dayEnd = at;
  const dayStart = world.zone.startOfDay(at - 3_600_000);
  const firstOfMonth = world.zone.wallDate(at).endsWith('-01');
  for (const account of world.accounts) {
    let count = 0;
    let goods = 0;
    for (const order of world.orders.values()) {
      if (order.accountNumber !== account.number || order.shippedAt === null) continue;
      if (order.shippedAt < dayStart || order.shippedAt >= dayEnd) continue;
      count += 1;
      for (const line of order.lines) goods += line.quantityShipped * line.unitPrice;
    }
    if (count > 0) {
      addInvoice(world, rng, account.number, 'DIRECT', count, Math.round(goods * 10) / 100 + count * 4.5, at);
      addInvoice(
        world,
        rng,
        account.number,
        'CARRIER',
        count,
        Math.round(count * rng.money(9, 16) * 100) / 100,
        at,
      );
    }
    if (firstOfMonth) addInvoice(world, rng, account.number, 'STORAGE', 0, rng.money(150, 900), at);
  }
}

function addInvoice(
  world: World,
  rng: Rng,
  accountNumber: string,
  invoiceType: string,
  orderCount: number,
  amount: number,
  at: number,
): void {
  world.seq.invoice += 1;
  const total = Math.round(amount * 100) / 100;
  const invoice: Invoice = {
    invoiceNumber: `INV-${String(400_000 + world.seq.invoice)}`,
    accountNumber,
    invoiceType,
    orderCount,
    invoiceDate: at,
    classAmount: total,
    totalAmount: total,
    paymentsReceived: 0,
    updatedAt: at,
  };
  world.invoices.set(invoice.invoiceNumber, invoice);
  world.log(at, 'invoice.created', invoice.invoiceNumber, { total, invoiceType });
  const payAt = minuteOf(at) + rng.int(1, 10) * 1440 + rng.int(0, 600);
  if (rng.chance(0.3))
    world.schedule(payAt - 720, { kind: 'payInvoice', invoiceNumber: invoice.invoiceNumber });
  world.schedule(payAt, { kind: 'payInvoice', invoiceNumber: invoice.invoiceNumber });
}

/** A payment arrives: half the balance when more payments are pending, otherwise all of it. */
export function payInvoice(world: World, invoiceNumber: string, at: number, pendingPayments: number): void {
  const invoice = world.invoices.get(invoiceNumber);
  if (!invoice) return;
  const balance = Math.round((invoice.totalAmount - invoice.paymentsReceived) * 100) / 100;
  if (balance <= 0) return;
  const payment = pendingPayments > 0 ? Math.round(balance * 50) / 100 : balance;
  invoice.paymentsReceived = Math.round((invoice.paymentsReceived + payment) * 100) / 100;
  invoice.updatedAt = at;
  world.log(at, 'invoice.payment', invoiceNumber, {
    payment,
    balanceDue: Math.round((invoice.totalAmount - invoice.paymentsReceived) * 100) / 100,
  });
}
