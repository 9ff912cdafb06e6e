import { describe, expect, it } from 'vitest';
import { parseAttemptStatus, parseLimit, parseList, parseSince, parseTypes } from './webhookInputs.ts';

describe('webhooks option parsers', () => {
  const now = new Date('2026-03-01T12:00:00Z');

  it('reads --since as ISO 8601 or a duration back from now, and refuses anything else', () => {
    expect(parseSince('2026-02-28T10:00:00Z', now).toISOString()).toBe('2026-02-28T10:00:00.000Z');
    expect(parseSince('2026-02-28', now).toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(parseSince('90s', now).toISOString()).toBe('2026-03-01T11:58:30.000Z');
    expect(parseSince('2h', now).toISOString()).toBe('2026-03-01T10:00:00.000Z');
    expect(parseSince('7d', now).toISOString()).toBe('2026-02-22T12:00:00.000Z');
    for (const bad of ['yesterday', '7', '2h ago', '2026-13-45', '']) {
      expect(() => parseSince(bad, now), bad).toThrow(/is not a time/);
    }
  });

  it('reads statuses, limits and type lists', () => {
    expect(parseAttemptStatus('gave_up')).toBe('gave_up');
    expect(() => parseAttemptStatus('pending')).toThrow(
      '"pending" is not a status: use succeeded, failed, gave_up.',
    );
    expect(parseLimit('25')).toBe(25);
    expect(() => parseLimit('0')).toThrow(/not a limit/);
    expect(parseTypes('a, b,,c')).toEqual(['a', 'b', 'c']);
    expect(parseTypes('all')).toEqual([]);
    expect(parseTypes('*')).toEqual([]);
    expect(parseTypes('shipment.*, order.hold_added')).toEqual(['shipment.*', 'order.hold_added']);
    expect(parseList('A1, A2')).toEqual(['A1', 'A2']);
    expect(parseList('')).toEqual([]);
  });
});
