import { describe, expect, it } from 'vitest';
import { reasonShape, rejectionFingerprint } from './rejections.ts';

describe('rejectionFingerprint', () => {
  const base = { kind: 'quarantined' as const, key: 'S1/GLW/FG/B', reason: 'qtyOnHand: expected number' };

  it('ignores the record when the key is readable: its other fields may move', () => {
    expect(rejectionFingerprint({ ...base, raw: { qtyOnOrders: 1 } })).toBe(
      rejectionFingerprint({ ...base, raw: { qtyOnOrders: 2 } }),
    );
  });

  it('tells problems apart by kind, key and reason', () => {
    const one = rejectionFingerprint({ ...base, raw: null });
    expect(rejectionFingerprint({ ...base, kind: 'repaired', raw: null })).not.toBe(one);
    expect(rejectionFingerprint({ ...base, key: 'S1/GLW/FG/C', raw: null })).not.toBe(one);
    expect(rejectionFingerprint({ ...base, reason: 'sku: required', raw: null })).not.toBe(one);
  });

  it('keeps one problem whose reason quotes a value that moves', () => {
    const at = (n: number) =>
      rejectionFingerprint({
        ...base,
        reason: `order_count is outside the 32-bit integer range (${n})`,
        raw: n,
      });
    expect(at(3_000_000_001)).toBe(at(3_000_000_002));
  });

  it('uses the record itself when there is no key', () => {
    const unkeyed = (raw: unknown, key?: string) => rejectionFingerprint({ ...base, key, raw });
    expect(unkeyed({ a: 1 })).not.toBe(unkeyed({ a: 2 }));
    expect(unkeyed({ a: 1 }, '')).not.toBe(unkeyed({ a: 2 }, ''));
    expect(unkeyed({ a: 1 })).toBe(unkeyed({ a: 1 }));
  });
});

describe('reasonShape', () => {
  it('masks the numbers a reason quotes, and nothing else', () => {
    expect(reasonShape('key is 81920 bytes long (at most 2000 can be indexed)')).toBe(
      'key is # bytes long (at most # can be indexed)',
    );
    expect(reasonShape('NUL removed from events.1.description')).toBe(
      'NUL removed from events.#.description',
    );
  });
});
