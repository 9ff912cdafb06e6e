import { describe, expect, it } from 'vitest';
import { parseUpstreamDateTime } from '../time/parse.ts';
import { parseDateTime } from './rows.ts';

const TZ = 'America/Los_Angeles';

describe('parseDateTime', () => {
  it('agrees with src/time on every minute around both DST changes and on offsets', () => {
    for (const day of ['2026-03-08', '2026-11-01', '2026-06-15']) {
      for (let m = 0; m < 4 * 60; m += 7) {
        const text = `${day}T${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}:13.5`;
        expect(parseDateTime(text, TZ)?.toISOString(), text).toBe(
          parseUpstreamDateTime(text, TZ).toISOString(),
        );
      }
    }
    expect(parseDateTime('2026-06-01T10:00:00Z', TZ)?.toISOString()).toBe('2026-06-01T10:00:00.000Z');
    expect(parseDateTime('2026-06-01', TZ)?.toISOString()).toBe('2026-06-01T07:00:00.000Z');
    expect(parseDateTime(null, TZ)).toBeNull();
  });

  it('rejects impossible values', () => {
    expect(() => parseDateTime('2026-02-30T10:00', TZ)).toThrow();
    expect(() => parseDateTime('2026-06-01T10:75', TZ)).toThrow();
    expect(() => parseDateTime('yesterday', TZ)).toThrow();
  });
});
