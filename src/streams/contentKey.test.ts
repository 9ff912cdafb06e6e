import { describe, expect, it } from 'vitest';
import { trackingEventKey } from '../events/trackingEventKey.ts';
import { codePart, contentKey, instantPart, textPart } from './contentKey.ts';

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
    expect(trackingEventKey({ ...scan, city: 'Napa|CA', stateOrProvince: 'US' }, LA)).not.toBe(
      trackingEventKey({ ...scan, city: 'Napa', stateOrProvince: 'CA|US' }, LA),
    );
  });

  it('is the same for the same scan in another spelling: offset, UTC, case of the city, spacing', () => {
    const scan = {
      eventTime: '2026-03-01T10:00:00',
      city: 'Napa',
      stateOrProvince: 'CA',
      description: 'Arrived',
    };
    for (const respelled of [
      { ...scan, eventTime: '2026-03-01T18:00:00Z' },
      { ...scan, eventTime: '2026-03-01T10:00:00-08:00' },
      { ...scan, eventTime: '2026-03-01T10:00:00.0000000' },
      { ...scan, city: 'NAPA ', stateOrProvince: 'ca' },
      { ...scan, description: ' Arrived\t' },
    ])
      expect(trackingEventKey(respelled, LA), JSON.stringify(respelled)).toBe(trackingEventKey(scan, LA));
    // What it says still tells scans apart: another minute, another text (case kept in free text).
    expect(trackingEventKey({ ...scan, eventTime: '2026-03-01T10:01:00' }, LA)).not.toBe(
      trackingEventKey(scan, LA),
    );
    expect(trackingEventKey({ ...scan, description: 'ARRIVED' }, LA)).not.toBe(trackingEventKey(scan, LA));
  });
});

describe('key parts', () => {
  it('an instant however it is spelled; unset or missing is null; no date-time stays text', () => {
    expect(instantPart('2026-03-01T10:00:00', LA)).toBe('2026-03-01T18:00:00.000Z');
    expect(instantPart('2026-03-01T18:00:00Z', LA)).toBe('2026-03-01T18:00:00.000Z');
    expect(instantPart('2026-03-01 10:00', LA)).toBe('2026-03-01T18:00:00.000Z');
    expect(instantPart('0001-01-01T00:00:00', LA)).toBeNull();
    expect(instantPart(null, LA)).toBeNull();
    expect(instantPart('soon ', LA)).toBe('soon');
  });

  it('the repeated autumn hour is read as configured', () => {
    expect(instantPart('2026-11-01T01:30:00', LA)).toBe('2026-11-01T09:30:00.000Z');
    expect(instantPart('2026-11-01T01:30:00', { ...LA, ambiguousTime: 'earlier' })).toBe(
      '2026-11-01T08:30:00.000Z',
    );
  });

  it('texts fold ASCII spacing; codes fold ASCII case too; blank is null', () => {
    expect(textPart('  Left \t at\n\nthe door ')).toBe('Left at the door');
    expect(textPart('Éclair')).toBe('Éclair');
    expect(textPart(' \t ')).toBeNull();
    expect(codePart(' credit  hold ')).toBe('CREDIT HOLD');
    // Only ASCII letters change case: what SQL's translate() does the same way in the migration.
    expect(codePart('straße é')).toBe('STRAßE é');
    expect(codePart('')).toBeNull();
  });
});

const LA = { timezone: 'America/Los_Angeles' };
