import { describe, expect, it } from 'vitest';
import type { OrderDetail, OrderDetailHold } from '../../api/records/index.ts';
import { deriveEvents } from '../derive.ts';
import { testContext } from '../testContext.ts';

const ctx = testContext();
const hold = (released = false): OrderDetailHold => ({
  holdName: 'CREDIT',
  holdStatus: released ? 'RELEASED' : 'ACTIVE',
  creationDate: '2026-03-01T10:00:00Z',
  releaseDate: released ? '2026-03-02T08:00:00Z' : null,
  isDirectlyReleasable: true,
});
const order = (orderStatusCode: string, holds: OrderDetailHold[] = []): OrderDetail =>
  ({
    header: {
      accountNumber: 'ACC1',
      orderNumber: 'O1',
      creationDate: '2026-03-01T09:00:00Z',
      orderStatusCode,
      isOnsitePurchase: false,
      isLineHaul: false,
      isEditable: true,
      isCancellable: true,
      isBackOrdered: false,
      hasInventoryHold: holds.length > 0,
    },
    holds,
  }) as OrderDetail;
const types = (prev: OrderDetail | null, cur: OrderDetail) =>
  deriveEvents('order', prev, cur, ctx).map((e) => e.type);

describe('order rule', () => {
  it('emits nothing for a first-seen order without holds, or an unchanged one', () => {
    expect(types(null, order('SHIPPED'))).toEqual([]);
    expect(types(order('SHIPPED', [hold()]), order('SHIPPED', [hold()]))).toEqual([]);
  });

  it('emits hold_added for an active hold of a first-seen order, and not for a released one', () => {
    const events = deriveEvents('order', null, order('SHIPPED', [hold()]), ctx);
    expect(events.map((e) => e.type)).toEqual(['order.hold_added']);
    expect(events[0]?.subject.key).toBe('ACC1:O1');
    expect(events[0]?.occurredAt).toBe('2026-03-01T10:00:00.000Z');
    expect(types(null, order('SHIPPED', [hold(true)]))).toEqual([]);
  });

  it('emits status_changed when the header status changes', () => {
    expect(types(order('SHIPPED'), order('IN_TRANSIT'))).toEqual(['order.status_changed']);
  });

  it('emits hold_released when a hold is released or disappears', () => {
    const released = deriveEvents('order', order('SHIPPED', [hold()]), order('SHIPPED', [hold(true)]), ctx);
    expect(released.map((e) => e.type)).toEqual(['order.hold_released']);
    expect(released[0]?.occurredAt).toBe('2026-03-02T08:00:00.000Z');
    const vanished = deriveEvents('order', order('SHIPPED', [hold()]), order('SHIPPED'), ctx);
    expect(vanished.map((e) => e.type)).toEqual(['order.hold_released']);
    expect(vanished[0]?.id).toBe(released[0]?.id);
  });

  it('emits added and released for a hold that came and went between two reads', () => {
    expect(types(order('SHIPPED'), order('SHIPPED', [hold(true)]))).toEqual([
      'order.hold_added',
      'order.hold_released',
    ]);
  });

  it('keeps the id for the same status change derived twice, and gives a repeated one a new id', () => {
    const [first] = deriveEvents('order', order('HOLD'), order('RELEASED'), ctx);
    expect(first?.type).toBe('order.status_changed');
    expect(deriveEvents('order', order('HOLD'), order('RELEASED'), ctx)[0]?.id).toBe(first?.id);
    const [second] = deriveEvents(
      'order',
      order('HOLD'),
      order('RELEASED'),
      testContext({ detectedAt: new Date('2026-03-05T10:00:00Z') }),
    );
    expect(second?.type).toBe('order.status_changed');
    expect(second?.id).not.toBe(first?.id);
  });
});
