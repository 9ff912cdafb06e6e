import { describe, expect, it } from 'vitest';
import type { StreamName } from '../config/types.ts';
import { phaseOffsetMs } from './schedulePhase.ts';
import { scheduleId } from './schedules.ts';

const MINUTE = 60_000;
const scopes = Array.from({ length: 100 }, (_, i) => `SUP${100 + i}`);

/** How many of `offsets` fall in each of `buckets` equal parts of `period`. */
function histogram(offsets: number[], period: number, buckets: number): number[] {
  const counts = new Array<number>(buckets).fill(0);
  for (const offset of offsets) counts[Math.floor((offset / period) * buckets)]! += 1;
  return counts;
}

describe('phaseOffsetMs', () => {
  it('is the same for the same scheduler on every call, inside its period and never 0', () => {
    for (const every of [MINUTE, 5 * MINUTE, 1440 * MINUTE]) {
      for (const scope of scopes) {
        const id = scheduleId('products', scope);
        const offset = phaseOffsetMs(id, every);
        expect(offset).toBe(phaseOffsetMs(id, every));
        expect(offset).toBeGreaterThan(0);
        expect(offset).toBeLessThan(every);
      }
    }
  });

  it("spreads 100 scopes' daily schedulers over the day and five-minute ones over five minutes", () => {
    const day = 1440 * MINUTE;
    const daily = scopes.map((s) => phaseOffsetMs(scheduleId('products', s), day));
    // 100 over 24 hours is about 4 an hour; all at once would be 100 in one.
    expect(Math.max(...histogram(daily, day, 24))).toBeLessThanOrEqual(12);
    const fiveMinutes = scopes.map((s) => phaseOffsetMs(scheduleId('shipments', s), 5 * MINUTE));
    expect(Math.min(...histogram(fiveMinutes, 5 * MINUTE, 5))).toBeGreaterThanOrEqual(8);
  });

  it('gives the streams of one scope different phases', () => {
    const streams: StreamName[] = ['products', 'invoices', 'inventory', 'transfers_in', 'transfers_out'];
    const offsets = streams.map((s) => phaseOffsetMs(scheduleId(s, 'SUP100'), 1440 * MINUTE));
    expect(new Set(offsets).size).toBe(streams.length);
  });
});
