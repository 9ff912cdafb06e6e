import { describe, expect, it } from 'vitest';
import { nextWindowSize, plannedWindowSize } from './windowSize.ts';

const settings = {
  cadenceMinutes: 5,
  cadenceIsExplicit: false,
  freshnessSeconds: 0,
  lookbackMinutes: 120,
  rereadDays: 0,
  historyDays: 0,
  windowSize: 1000,
  minWindowSize: 10,
};

describe('adaptive window sizes', () => {
  it('plans with the remembered size, within the minimum and the configured maximum', () => {
    const cursor = { position: undefined, lastSuccessAt: undefined };
    expect(plannedWindowSize({ cursor, settings })).toBe(1000);
    expect(plannedWindowSize({ cursor: { ...cursor, windowSize: 250 }, settings })).toBe(250);
    expect(plannedWindowSize({ cursor: { ...cursor, windowSize: 5000 }, settings })).toBe(1000);
    expect(plannedWindowSize({ cursor: { ...cursor, windowSize: 2 }, settings })).toBe(10);
  });

  it('after a split remembers the smallest window that was read', () => {
    const decision = nextWindowSize({
      planned: 1000,
      max: 1000,
      maxRows: 100,
      windows: [
        { size: 250, rows: 80, depth: 2 },
        { size: 250, rows: 90, depth: 2 },
        { size: 500, rows: 60, depth: 1 },
      ],
    });
    expect(decision?.size).toBe(250);
  });

  it('doubles up to the maximum while every answer is well under the cap, and keeps it otherwise', () => {
    expect(
      nextWindowSize({ planned: 300, max: 1000, maxRows: 100, windows: [{ size: 120, rows: 24, depth: 0 }] })
        ?.size,
    ).toBe(600);
    expect(
      nextWindowSize({ planned: 600, max: 1000, maxRows: 100, windows: [{ size: 600, rows: 3, depth: 0 }] })
        ?.size,
    ).toBe(1000);
    expect(
      nextWindowSize({ planned: 1000, max: 1000, maxRows: 100, windows: [{ size: 900, rows: 3, depth: 0 }] }),
    ).toBeUndefined();
    expect(
      nextWindowSize({ planned: 300, max: 1000, maxRows: 100, windows: [{ size: 300, rows: 25, depth: 0 }] }),
    ).toBeUndefined();
    expect(nextWindowSize({ planned: 300, max: 1000, maxRows: 100, windows: [] })).toBeUndefined();
  });
});
