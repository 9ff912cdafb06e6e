import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../api/records/index.ts';
import { deriveEvents } from '../derive.ts';
import { testContext } from '../testContext.ts';

const ctx = testContext();
const invoice = (balanceDue: number, extra: Partial<Invoice> = {}): Invoice => ({
  invoiceNumber: 'INV-1',
  accountNumber: 'ACC1',
  invoiceDate: '2026-02-01',
  totalInvoiceAmount: 100,
  paymentsReceived: 100 - balanceDue,
  balanceDue,
  ...extra,
});
const types = (events: { type: string }[]) => events.map((e) => e.type);

describe('invoice rule', () => {
  it('emits created with occurredAt from invoiceDate (Pacific midnight)', () => {
    const events = deriveEvents('invoice', null, invoice(100), ctx);
    expect(types(events)).toEqual(['invoice.created']);
    expect(events[0]?.occurredAt).toBe('2026-02-01T08:00:00.000Z');
  });

  it('emits created and paid when first seen paid, but not for a zero-amount invoice', () => {
    expect(types(deriveEvents('invoice', null, invoice(0), ctx))).toEqual([
      'invoice.created',
      'invoice.paid',
    ]);
    expect(types(deriveEvents('invoice', null, invoice(0, { totalInvoiceAmount: 0 }), ctx))).toEqual([
      'invoice.created',
    ]);
  });

  it('emits nothing for an unchanged record', () => {
    expect(deriveEvents('invoice', invoice(40), invoice(40), ctx)).toEqual([]);
  });

  it('emits balance_changed on a partial payment and paid when the balance reaches 0', () => {
    const partial = deriveEvents('invoice', invoice(100), invoice(40), ctx);
    expect(types(partial)).toEqual(['invoice.balance_changed']);
    expect(partial[0]?.data.changes).toContainEqual({ field: 'balanceDue', from: 100, to: 40 });
    expect(types(deriveEvents('invoice', invoice(40), invoice(0), ctx))).toEqual([
      'invoice.balance_changed',
      'invoice.paid',
    ]);
  });

  it('keeps ids for the same change derived twice, and gives a repeated balance change or payoff a new id', () => {
    const first = deriveEvents('invoice', invoice(40), invoice(0), ctx);
    expect(types(first)).toEqual(['invoice.balance_changed', 'invoice.paid']);
    expect(deriveEvents('invoice', invoice(40), invoice(0), ctx).map((e) => e.id)).toEqual(
      first.map((e) => e.id),
    );
    // An adjustment reopened the invoice and it was paid off again later.
    const second = deriveEvents(
      'invoice',
      invoice(40),
      invoice(0),
      testContext({ detectedAt: new Date('2026-03-05T10:00:00Z') }),
    );
    expect(types(second)).toEqual(types(first));
    for (const [index, event] of second.entries()) expect(event.id).not.toBe(first[index]?.id);
  });
});
