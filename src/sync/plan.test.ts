import { describe, expect, it } from 'vitest';
import { dayWindows, minuteWindows, planLookbackMinutes, planRereadDays, splitWindow } from './plan.ts';

const TZ = 'America/Los_Angeles';
const at = (iso: string) => new Date(iso);

describe('minute windows', () => {
  it('cover from the cursor minus the lookback up to now, each advancing the cursor to its end', () => {
    const windows = planLookbackMinutes({
      cursor: at('2026-06-01T12:00:00Z'),
      start: at('2026-05-01T00:00:00Z'),
      now: at('2026-06-01T13:30:40Z'),
      lookbackMinutes: 120,
      windowSize: 60,
    });
    expect(windows.map((w) => [w.start.toISOString(), w.end.toISOString()])).toEqual([
      ['2026-06-01T10:00:00.000Z', '2026-06-01T11:00:00.000Z'],
      ['2026-06-01T11:00:00.000Z', '2026-06-01T12:00:00.000Z'],
      ['2026-06-01T12:00:00.000Z', '2026-06-01T13:00:00.000Z'],
      ['2026-06-01T13:00:00.000Z', '2026-06-01T13:30:00.000Z'],
    ]);
    expect(windows.at(-1)?.advanceTo?.toISOString()).toBe('2026-06-01T13:30:00.000Z');
  });

  it('start at the configured start on the first run', () => {
    const windows = minuteWindows(at('2026-06-01T00:00:00Z'), at('2026-06-01T00:10:00Z'), 60);
    expect(windows).toHaveLength(1);
    expect(windows[0]?.start.toISOString()).toBe('2026-06-01T00:00:00.000Z');
  });
});

describe('day windows', () => {
  it('re-read the horizon and resume from the cursor, whichever is earlier', () => {
    const windows = planRereadDays({
      cursor: at('2026-06-20T07:00:00Z'),
      start: at('2026-01-01T00:00:00Z'),
      now: at('2026-06-30T20:00:00Z'),
      rereadDays: 3,
      windowSize: 7,
      timezone: TZ,
    });
    expect(windows).toHaveLength(2);
    expect(windows[0]?.start.toISOString()).toBe('2026-06-20T07:00:00.000Z');
    expect(windows[1]?.end.toISOString()).toBe('2026-06-30T07:00:00.000Z');
  });

  it('keep the cursor position stable within a day (a same-day re-run moves nothing)', () => {
    const plan = (now: string) =>
      planRereadDays({
        cursor: undefined,
        start: at('2026-06-01T12:00:00Z'),
        now: at(now),
        rereadDays: 30,
        windowSize: 7,
        timezone: TZ,
      });
    expect(plan('2026-06-30T16:00:00Z').at(-1)?.advanceTo).toEqual(
      plan('2026-06-30T23:00:00Z').at(-1)?.advanceTo,
    );
  });

  it('span DST days by calendar, not by 24-hour steps', () => {
    const windows = dayWindows('2026-10-31', '2026-11-02', 1, TZ);
    expect(windows.map((w) => w.start.toISOString())).toEqual([
      '2026-10-31T07:00:00.000Z',
      '2026-11-01T07:00:00.000Z',
      '2026-11-02T08:00:00.000Z',
    ]);
  });
});

describe('splitWindow', () => {
  it('halves minute windows down to the minimum, keeping the cursor move on the second half', () => {
    const w = {
      kind: 'minute' as const,
      start: at('2026-06-01T00:00:00Z'),
      end: at('2026-06-01T01:00:00Z'),
      advanceTo: at('2026-06-01T01:00:00Z'),
    };
    const halves = splitWindow(w, 1, TZ);
    expect(halves?.map((h) => [h.start.toISOString(), h.end.toISOString()])).toEqual([
      ['2026-06-01T00:00:00.000Z', '2026-06-01T00:30:00.000Z'],
      ['2026-06-01T00:30:00.000Z', '2026-06-01T01:00:00.000Z'],
    ]);
    expect(splitWindow({ ...w, end: at('2026-06-01T00:01:00Z') }, 1, TZ)).toBeNull();
  });

  it('halves day windows by calendar day and refuses a single day', () => {
    const [w] = dayWindows('2026-06-01', '2026-06-04', 4, TZ);
    const halves = splitWindow(w!, 1, TZ);
    expect(halves?.map((h) => h.start.toISOString())).toEqual([
      '2026-06-01T07:00:00.000Z',
      '2026-06-03T07:00:00.000Z',
    ]);
    expect(splitWindow(dayWindows('2026-06-01', '2026-06-01', 1, TZ)[0]!, 1, TZ)).toBeNull();
  });
});
