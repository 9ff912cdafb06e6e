import { describe, expect, it } from 'vitest';
import type { ShipmentReturn } from '../../api/records/index.ts';
import { deriveEvents } from '../derive.ts';
import { testContext } from '../testContext.ts';

const ctx = testContext();
const ret = (processingStatusCode: string, extra: Partial<ShipmentReturn> = {}): ShipmentReturn => ({
  shipReturnId: 77,
  orderNumber: 'O1',
  returnDate: '2026-02-27T12:00:00Z',
  processingStatusCode,
  ...extra,
});
const types = (events: { type: string }[]) => events.map((e) => e.type);

describe('return rule', () => {
  it('emits created with occurredAt from returnDate when first seen', () => {
    const [created, ...rest] = deriveEvents('return', null, ret('NEW'), ctx);
    expect(created?.type).toBe('return.created');
    expect(created?.subject).toEqual({ kind: 'return', key: '77' });
    expect(created?.occurredAt).toBe('2026-02-27T12:00:00.000Z');
    expect(rest).toEqual([]);
  });

  it('emits created and resolved when first seen RESOLVED', () => {
    expect(types(deriveEvents('return', null, ret('RESOLVED'), ctx))).toEqual([
      'return.created',
      'return.resolved',
    ]);
  });

  it('emits nothing for an unchanged record', () => {
    expect(deriveEvents('return', ret('NEW'), ret('NEW'), ctx)).toEqual([]);
  });

  it('emits status_changed, and resolved on the move to RESOLVED', () => {
    expect(types(deriveEvents('return', ret('NEW'), ret('IN_PROCESS'), ctx))).toEqual([
      'return.status_changed',
    ]);
    const events = deriveEvents(
      'return',
      ret('IN_PROCESS'),
      ret('RESOLVED', { resolutionCode: 'REFUND' }),
      ctx,
    );
    expect(types(events)).toEqual(['return.status_changed', 'return.resolved']);
    expect(events[0]?.data.changes).toContainEqual({
      field: 'processingStatusCode',
      from: 'IN_PROCESS',
      to: 'RESOLVED',
    });
    expect(events[0]?.occurredAt).toBe(ctx.detectedAt.toISOString());
  });

  it('emits nothing for a change that is not the status', () => {
    expect(deriveEvents('return', ret('NEW'), ret('NEW', { trackingNumber: 'T9' }), ctx)).toEqual([]);
  });

  it('keeps ids for the same change derived twice, and gives a repeated status a new id', () => {
    const first = deriveEvents('return', ret('RECEIVED'), ret('RESOLVED'), ctx);
    expect(types(first)).toEqual(['return.status_changed', 'return.resolved']);
    expect(deriveEvents('return', ret('RECEIVED'), ret('RESOLVED'), ctx).map((e) => e.id)).toEqual(
      first.map((e) => e.id),
    );
    // Reopened and resolved again on a later day: a real second resolution.
    const second = deriveEvents(
      'return',
      ret('RECEIVED'),
      ret('RESOLVED'),
      testContext({ detectedAt: new Date('2026-03-05T10:00:00Z') }),
    );
    expect(types(second)).toEqual(types(first));
    for (const [index, event] of second.entries()) expect(event.id).not.toBe(first[index]?.id);
  });
});
