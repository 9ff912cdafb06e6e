import { describe, expect, it } from 'vitest';
import type { StreamSettings } from '../../src/config/types.ts';
import { planActivityWindows } from '../../src/streams/inventoryActivity.ts';
import { OPEN_WINDOW_FILTER, planTransfersInWindows } from '../../src/streams/transfersIn.ts';
import { dayOf } from '../../src/sync/plan.ts';

const tz = 'America/Los_Angeles';
const settings = (s: Partial<StreamSettings>): StreamSettings => ({
  cadenceMinutes: 15,
  cadenceIsExplicit: false,
  freshnessSeconds: 0,
  lookbackMinutes: 0,
  rereadDays: 0,
  historyDays: 0,
  windowSize: 1,
  minWindowSize: 1,
  ...s,
});
const now = new Date('2026-03-10T20:00:00Z');

describe('inventory_activity windows', () => {
  it('re-reads yesterday and today, one day per window, even with a larger window size', () => {
    const windows = planActivityWindows({
      cursor: { position: now, lastSuccessAt: now },
      now,
      settings: settings({ rereadDays: 1, windowSize: 7 }),
      timezone: tz,
      start: new Date('2026-01-01T00:00:00Z'),
    });
    expect(windows.map((w) => dayOf(w.start, tz))).toEqual(['2026-03-09', '2026-03-10']);
    expect(windows.every((w) => dayOf(w.start, tz) === dayOf(w.end, tz))).toBe(true);
  });

  it('reads from the start on the first run', () => {
    const windows = planActivityWindows({
      cursor: { position: undefined, lastSuccessAt: undefined },
      now,
      settings: settings({ rereadDays: 1 }),
      timezone: tz,
      start: new Date('2026-03-05T12:00:00Z'),
    });
    expect(windows).toHaveLength(6);
    expect(windows.at(-1)?.advanceTo).toBeDefined();
  });
});

describe('transfers_in windows', () => {
  it('re-reads 90 days of submitted dates, then every open status, which moves no cursor', () => {
    const windows = planTransfersInWindows({
      cursor: { position: now, lastSuccessAt: now },
      now,
      settings: settings({ rereadDays: 90, windowSize: 7 }),
      timezone: tz,
      start: new Date('2026-01-01T00:00:00Z'),
    });
    const days = windows.filter((w) => w.kind === 'day');
    expect(dayOf(days[0]!.start, tz)).toBe('2025-12-10');
    expect(dayOf(days.at(-1)!.end, tz)).toBe('2026-03-10');
    const open = windows.at(-1)!;
    expect(open.kind).toBe('filter');
    expect(open.filter).toEqual(OPEN_WINDOW_FILTER);
    expect(open.advanceTo).toBeUndefined();
  });
});
