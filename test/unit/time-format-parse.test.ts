import { describe, expect, it } from 'vitest';
import { dateTime, requiredDateTime } from '../../src/api/records/primitives.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { upstreamInstant } from '../../src/events/upstreamTime.ts';
import { formatWireDay, formatWireMinute } from '../../src/time/format.ts';
import {
  type AmbiguousTime,
  InvalidDateTimeError,
  isUnsetDateTime,
  parseDateTime,
  parseUpstreamDateTime,
} from '../../src/time/parse.ts';

const LA = 'America/Los_Angeles';
const utc = (iso: string) => new Date(iso);

describe('formatWireDay / formatWireMinute', () => {
  it('formats wall-clock time in the zone, not UTC', () => {
    expect(formatWireDay(utc('2026-01-15T07:59:00Z'), LA)).toBe('2026-01-14');
    expect(formatWireDay(utc('2026-01-15T08:00:00Z'), LA)).toBe('2026-01-15');
    expect(formatWireMinute(utc('2026-01-15T08:00:59.999Z'), LA)).toBe('2026-01-15T00:00');
  });

  it('formats both sides of the spring change (2026-03-08, 02:00 PST -> 03:00 PDT)', () => {
    expect(formatWireMinute(utc('2026-03-08T09:59:00Z'), LA)).toBe('2026-03-08T01:59');
    expect(formatWireMinute(utc('2026-03-08T10:00:00Z'), LA)).toBe('2026-03-08T03:00');
    expect(formatWireDay(utc('2026-03-08T08:00:00Z'), LA)).toBe('2026-03-08');
    expect(formatWireDay(utc('2026-03-09T06:59:00Z'), LA)).toBe('2026-03-08');
    expect(formatWireDay(utc('2026-03-09T07:00:00Z'), LA)).toBe('2026-03-09');
  });

  it('formats both sides of the autumn change (2026-11-01, 02:00 PDT -> 01:00 PST)', () => {
    expect(formatWireMinute(utc('2026-11-01T08:59:00Z'), LA)).toBe('2026-11-01T01:59');
    expect(formatWireMinute(utc('2026-11-01T09:00:00Z'), LA)).toBe('2026-11-01T01:00');
    expect(formatWireMinute(utc('2026-11-01T10:00:00Z'), LA)).toBe('2026-11-01T02:00');
    expect(formatWireDay(utc('2026-11-01T07:00:00Z'), LA)).toBe('2026-11-01');
    expect(formatWireDay(utc('2026-11-02T07:59:00Z'), LA)).toBe('2026-11-01');
    expect(formatWireDay(utc('2026-11-02T08:00:00Z'), LA)).toBe('2026-11-02');
  });
});

describe('parseUpstreamDateTime', () => {
  it('honours an explicit offset or Z', () => {
    expect(parseUpstreamDateTime('2026-03-08T01:30:00-08:00', LA).toISOString()).toBe(
      '2026-03-08T09:30:00.000Z',
    );
    expect(parseUpstreamDateTime('2026-03-08T01:30:00Z', LA).toISOString()).toBe('2026-03-08T01:30:00.000Z');
    expect(parseUpstreamDateTime('2026-03-08T01:30:00.123+0530', LA).toISOString()).toBe(
      '2026-03-07T20:00:00.123Z',
    );
  });

  it('reads a time without offset as wall-clock time in the zone, on both sides of each change', () => {
    expect(parseUpstreamDateTime('2026-03-08T01:59:00', LA).toISOString()).toBe('2026-03-08T09:59:00.000Z');
    expect(parseUpstreamDateTime('2026-03-08T03:00:00', LA).toISOString()).toBe('2026-03-08T10:00:00.000Z');
    expect(parseUpstreamDateTime('2026-11-01T00:59', LA).toISOString()).toBe('2026-11-01T07:59:00.000Z');
    expect(parseUpstreamDateTime('2026-11-01T02:00', LA).toISOString()).toBe('2026-11-01T10:00:00.000Z');
  });

  it('moves a time in the skipped spring hour forward by the gap', () => {
    expect(parseUpstreamDateTime('2026-03-08T02:00:00', LA).toISOString()).toBe('2026-03-08T10:00:00.000Z');
    expect(parseUpstreamDateTime('2026-03-08T02:30:00', LA).toISOString()).toBe('2026-03-08T10:30:00.000Z');
    expect(parseDateTime('2026-03-08T02:30:00', LA)?.toISOString()).toBe('2026-03-08T10:30:00.000Z');
  });

  it('reads a date alone as midnight in the zone', () => {
    expect(parseUpstreamDateTime('2026-03-08', LA).toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(parseUpstreamDateTime('2026-11-01', LA).toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(parseUpstreamDateTime('2026-11-02', LA).toISOString()).toBe('2026-11-02T08:00:00.000Z');
  });

  it('accepts a space separator and fractional seconds', () => {
    expect(parseUpstreamDateTime('2026-07-01 12:00:00.5', LA).toISOString()).toBe('2026-07-01T19:00:00.500Z');
  });

  it.each([
    '',
    'yesterday',
    '2026-13-01',
    '2026-02-30',
    '2026-01-01T24:00',
    '2026-01-01T10:00+25',
    '1/2/2026',
  ])('throws on %j', (value) => {
    expect(() => parseUpstreamDateTime(value, LA)).toThrow(InvalidDateTimeError);
  });
});

/** `2026-11-01T01:mm:ss` for minute `m` of the repeated hour. */
const repeated = (m: number, seconds = '00') => `2026-11-01T01:${String(m).padStart(2, '0')}:${seconds}`;
/** The instant of minute `m` of the repeated hour: its first occurrence (PDT) or its second (PST). */
const occurrence = (m: number, which: AmbiguousTime) =>
  new Date(Date.UTC(2026, 10, 1, which === 'earlier' ? 8 : 9, m)).toISOString();

describe('the repeated hour (2026-11-01 01:00-01:59 in Los Angeles, FULFILLMENT_AMBIGUOUS_TIME)', () => {
  it.each(['earlier', 'later'] as const)('%s: every minute resolves to that occurrence', (which) => {
    for (let m = 0; m < 60; m++) {
      expect(parseUpstreamDateTime(repeated(m), LA, which).toISOString(), repeated(m)).toBe(
        occurrence(m, which),
      );
    }
  });

  it('defaults to later (standard time, as .NET reads an ambiguous local time)', () => {
    for (let m = 0; m < 60; m++) {
      expect(parseUpstreamDateTime(repeated(m), LA).toISOString()).toBe(occurrence(m, 'later'));
      expect(parseDateTime(repeated(m), LA)?.toISOString()).toBe(occurrence(m, 'later'));
    }
  });

  it.each(['earlier', 'later'] as const)(
    '%s: the fast path agrees minute by minute, whatever it parsed before (its hour cache)',
    (which) => {
      // Warm the cache with the hours around the change, in both settings, then read the repeated hour.
      for (const hour of ['00', '01', '02']) {
        parseDateTime(`2026-11-01T${hour}:10:00`, LA, 'earlier');
        parseDateTime(`2026-11-01T${hour}:20:00`, LA, 'later');
      }
      for (let m = 0; m < 60; m++) {
        expect(parseDateTime(repeated(m, '13'), LA, which)?.toISOString(), repeated(m, '13')).toBe(
          new Date(Date.parse(occurrence(m, which)) + 13_000).toISOString(),
        );
      }
    },
  );

  it('leaves times carrying an offset alone, in both settings', () => {
    for (const which of ['earlier', 'later'] as const) {
      for (let m = 0; m < 60; m += 1) {
        const pdt = `${repeated(m)}-07:00`;
        const pst = `${repeated(m)}-08:00`;
        expect(parseUpstreamDateTime(pdt, LA, which).toISOString()).toBe(occurrence(m, 'earlier'));
        expect(parseUpstreamDateTime(pst, LA, which).toISOString()).toBe(occurrence(m, 'later'));
        expect(parseDateTime(pst, LA, which)?.toISOString()).toBe(occurrence(m, 'later'));
        expect(parseDateTime(`${repeated(m)}Z`, LA, which)?.toISOString()).toBe(
          `2026-11-01T01:${String(m).padStart(2, '0')}:00.000Z`,
        );
      }
    }
  });

  it('leaves the unambiguous minutes next to the repeated hour alone, in both settings', () => {
    for (const which of ['earlier', 'later'] as const) {
      expect(parseUpstreamDateTime('2026-11-01T00:59', LA, which).toISOString()).toBe(
        '2026-11-01T07:59:00.000Z',
      );
      expect(parseUpstreamDateTime('2026-11-01T02:00', LA, which).toISOString()).toBe(
        '2026-11-01T10:00:00.000Z',
      );
      expect(parseDateTime('2026-11-01T00:59', LA, which)?.toISOString()).toBe('2026-11-01T07:59:00.000Z');
      expect(parseDateTime('2026-11-01T02:00', LA, which)?.toISOString()).toBe('2026-11-01T10:00:00.000Z');
    }
  });
});

describe('parseDateTime (the engine fast path)', () => {
  it('agrees with parseUpstreamDateTime on every 7th minute around both DST changes and on offsets', () => {
    for (const day of ['2026-03-08', '2026-11-01', '2026-06-15']) {
      for (let m = 0; m < 4 * 60; m += 7) {
        const text = `${day}T${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:13.5`;
        expect(parseDateTime(text, LA)?.toISOString(), text).toBe(
          parseUpstreamDateTime(text, LA).toISOString(),
        );
      }
    }
    expect(parseDateTime('2026-06-01T10:00:00Z', LA)?.toISOString()).toBe('2026-06-01T10:00:00.000Z');
    expect(parseDateTime('2026-06-01', LA)?.toISOString()).toBe('2026-06-01T07:00:00.000Z');
    expect(parseDateTime(null, LA)).toBeNull();
    expect(parseDateTime('', LA)).toBeNull();
  });

  it('rejects impossible values', () => {
    expect(() => parseDateTime('2026-02-30T10:00', LA)).toThrow(InvalidDateTimeError);
    expect(() => parseDateTime('2026-06-01T10:75', LA)).toThrow(InvalidDateTimeError);
    expect(() => parseDateTime('yesterday', LA)).toThrow(InvalidDateTimeError);
  });
});

describe('one date-time syntax', () => {
  const read = [
    '2026-03-08',
    '2026-03-08T01:30',
    '2026-03-08 01:30:15',
    '2026-03-08T01:30:15.123456789',
    '2026-03-08T01:30:00Z',
    '2026-03-08T01:30:00-08:00',
    '2026-03-08T01:30:00.5+0530',
  ];
  const refused = [
    'yesterday',
    '2026-3-8',
    '2026-03-08T1:30',
    '2026-03-08T01:30+8',
    '2026-03-08T01:30 Z',
    '2026-03-08t01:30',
  ];

  it('what a record schema accepts is what the parser reads, and the configuration too', () => {
    const schema = dateTime();
    for (const value of read) {
      expect(schema.safeParse(value).success, value).toBe(true);
      expect(() => parseUpstreamDateTime(value, LA), value).not.toThrow();
      expect(loadConfig({ FULFILLMENT_SYNC_START: value }).syncStart, value).toBeInstanceOf(Date);
    }
    for (const value of refused) {
      expect(schema.safeParse(value).success, value).toBe(false);
      expect(() => parseUpstreamDateTime(value, LA), value).toThrow(InvalidDateTimeError);
      expect(() => loadConfig({ FULFILLMENT_SYNC_START: value }), value).toThrow(/FULFILLMENT_SYNC_START/);
    }
  });
});

describe('years 0000-0099 and "not set" sentinels', () => {
  it('reads years below 100 as written, not shifted by 1900', () => {
    expect(parseUpstreamDateTime('0050-06-01T12:00:00Z', LA).toISOString()).toBe('0050-06-01T12:00:00.000Z');
    expect(parseUpstreamDateTime('0099-12-31T23:59:59+00:00', LA).getUTCFullYear()).toBe(99);
    expect(parseDateTime('0012-03-04T05:06:07Z', LA)?.toISOString()).toBe('0012-03-04T05:06:07.000Z');
    // Year 0 is a leap year (proleptic Gregorian), 1900 is not.
    expect(parseUpstreamDateTime('0000-02-29T00:00:00Z', LA).toISOString()).toBe('0000-02-29T00:00:00.000Z');
    expect(() => parseUpstreamDateTime('0001-02-29T00:00:00Z', LA)).toThrow(InvalidDateTimeError);
  });

  it(".NET's default and maximum DateTime are no value: NULL in a column, never an event time", () => {
    for (const unset of [
      '0001-01-01T00:00:00',
      '0001-01-01T00:00:00.0000000',
      '0001-01-01T00:00:00Z',
      '0001-01-01T00:00:00-08:00',
      '0001-01-01',
      '9999-12-31T23:59:59.9999999',
    ]) {
      expect(isUnsetDateTime(unset)).toBe(true);
      expect(parseDateTime(unset, LA)).toBeNull();
      expect(upstreamInstant(unset, { timezone: LA })).toBeUndefined();
    }
    // Where the spec requires a value, "not set" is a bad record (quarantined with the reason).
    expect(requiredDateTime().safeParse('0001-01-01T00:00:00').success).toBe(false);
    expect(requiredDateTime().safeParse('0001-01-02T00:00:00').success).toBe(true);
    expect(dateTime().safeParse('0001-01-01T00:00:00').success).toBe(true);
    expect(isUnsetDateTime('0001-01-02T00:00:00')).toBe(false);
    expect(isUnsetDateTime('2026-01-01T00:00:00')).toBe(false);
    expect(parseDateTime('0001-01-02T00:00:00Z', LA)?.toISOString()).toBe('0001-01-02T00:00:00.000Z');
  });
});
