import { describe, expect, it } from 'vitest';
import { formatWireDay, formatWireMinute } from '../../src/time/format.ts';
import { InvalidDateTimeError, parseUpstreamDateTime } from '../../src/time/parse.ts';

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
    // The repeated hour resolves to one of its two occurrences.
    expect(['2026-11-01T08:30:00.000Z', '2026-11-01T09:30:00.000Z']).toContain(
      parseUpstreamDateTime('2026-11-01T01:30:00', LA).toISOString(),
    );
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
