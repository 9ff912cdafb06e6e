import { describe, expect, it } from 'vitest';
import { trackingEventKey } from '../events/trackingEventKey.ts';
import { contentKey } from './contentKey.ts';

describe('contentKey', () => {
  it('is the same for the same parts', () => {
    expect(contentKey(['NOTE', '2026-03-01T10:00:00', 'Pallet damaged'])).toBe(
      contentKey(['NOTE', '2026-03-01T10:00:00', 'Pallet damaged']),
    );
  });

  it('tells apart parts that only a separator inside a value would confuse', () => {
    expect(contentKey(['a|b', 'c'])).not.toBe(contentKey(['a', 'b|c']));
    expect(contentKey(['Hold|2026-03-01', null])).not.toBe(contentKey(['Hold', '2026-03-01']));
  });

  it('tells apart a missing part, an empty one and a number from its text', () => {
    expect(contentKey([null, 'x'])).not.toBe(contentKey(['', 'x']));
    expect(contentKey([1, 'x'])).not.toBe(contentKey(['1', 'x']));
    expect(contentKey([undefined, 'x'])).toBe(contentKey([null, 'x']));
  });
});

describe('trackingEventKey', () => {
  it('tells apart two scans whose texts differ only in where a "|" falls', () => {
    const scan = { eventTime: '2026-03-01T10:00:00', description: 'Arrived' };
    expect(trackingEventKey({ ...scan, city: 'Napa|CA', stateOrProvince: 'US' })).not.toBe(
      trackingEventKey({ ...scan, city: 'Napa', stateOrProvince: 'CA|US' }),
    );
  });
});
