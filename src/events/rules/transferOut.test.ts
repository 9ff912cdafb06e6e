import { describe, expect, it } from 'vitest';
import type { TransferOut } from '../../api/records/index.ts';
import { deriveEvents } from '../derive.ts';
import { testContext } from '../testContext.ts';

const ctx = testContext();
const out = (statusCode: string, extra: Partial<TransferOut> = {}): TransferOut => ({
  supplierId: 'SUP1',
  orderNumber: 'OUT-1',
  orderedDate: '2026-02-20T10:00:00Z',
  statusCode,
  ...extra,
});

describe('transfer_out rule', () => {
  it('emits created when first seen, keyed by supplier and order number', () => {
    const events = deriveEvents('transfer_out', null, out('OPEN'), ctx);
    expect(events.map((e) => e.type)).toEqual(['transfer_out.created']);
    expect(events[0]?.subject.key).toBe('SUP1:OUT-1');
    expect(events[0]?.occurredAt).toBe('2026-02-20T10:00:00.000Z');
  });

  it('emits nothing for an unchanged record, or for a change other than status', () => {
    expect(deriveEvents('transfer_out', out('OPEN'), out('OPEN'), ctx)).toEqual([]);
    expect(deriveEvents('transfer_out', out('OPEN'), out('OPEN', { isEditable: false }), ctx)).toEqual([]);
  });

  it('emits status_changed when statusCode changes', () => {
    const events = deriveEvents('transfer_out', out('OPEN'), out('SHIPPED'), ctx);
    expect(events.map((e) => e.type)).toEqual(['transfer_out.status_changed']);
    expect(events[0]?.data.changes).toEqual([{ field: 'statusCode', from: 'OPEN', to: 'SHIPPED' }]);
  });

  it('keeps the id for the same change derived twice, and gives a repeated status change a new id', () => {
    const [first] = deriveEvents('transfer_out', out('OPEN'), out('SHIPPED'), ctx);
    expect(deriveEvents('transfer_out', out('OPEN'), out('SHIPPED'), ctx)[0]?.id).toBe(first?.id);
    const [second] = deriveEvents(
      'transfer_out',
      out('OPEN'),
      out('SHIPPED'),
      testContext({ detectedAt: new Date('2026-03-05T10:00:00Z') }),
    );
    expect(second?.type).toBe('transfer_out.status_changed');
    expect(second?.id).not.toBe(first?.id);
  });
});
