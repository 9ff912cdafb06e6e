import { describe, expect, it } from 'vitest';
import { dayWindows, minuteWindows, planLookbackMinutes, splitWindow } from '../../src/sync/plan.ts';
import type { Window } from '../../src/sync/types.ts';
import { wireDayBounds, wireMinuteBounds } from '../../src/sync/wireBounds.ts';
import { wallClockDay } from '../../src/time/days.ts';
import { formatWireDay, formatWireMinute } from '../../src/time/format.ts';
import { instantsOfWallMinute } from '../../src/time/zone.ts';

/**
 * The engine's windows (src/sync/plan.ts) and their wire bounds (src/time/wireBounds.ts) read every
 * minute across both DST changes, minute by minute, whichever way the upstream reads a wall-clock
 * bound: as a string, or as an instant at the occurrence worst for us.
 */

const LA = 'America/Los_Angeles';
const MINUTE = 60_000;

/** Every whole minute in [from, to]. */
function minutesOf(from: Date, to: Date): Date[] {
  const out: Date[] = [];
  for (let t = Math.ceil(from.getTime() / MINUTE) * MINUTE; t <= to.getTime(); t += MINUTE)
    out.push(new Date(t));
  return out;
}

type Bounds = { beginDate: string; endDate: string };

/** Covered when the upstream compares wall-clock strings (either occurrence of the repeated hour counts). */
function coveredAsWallClock(wall: string, bounds: Bounds[]): boolean {
  return bounds.some((b) => b.beginDate <= wall && wall <= b.endDate);
}

/**
 * The instant range wire bounds mean when the upstream turns each bound into an instant and picks
 * the worst occurrence for us: the latest begin and the earliest end (inclusive to hh:mm:59.999).
 */
function strictInstantRange(b: Bounds): [number, number] {
  const begins = instantsOfWallMinute(b.beginDate, LA);
  const ends = instantsOfWallMinute(b.endDate, LA);
  const latestBegin = begins.at(-1);
  const earliestEnd = ends[0];
  if (!latestBegin || !earliestEnd) return [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  return [latestBegin.getTime(), earliestEnd.getTime() + MINUTE - 1];
}

function expectFullCoverage(from: Date, to: Date, windows: readonly Window[]): void {
  const bounds = windows.map((w) => wireMinuteBounds(w, LA));
  const ranges = bounds.map(strictInstantRange);
  const minutes = minutesOf(from, to);
  const missedWall = minutes.filter((m) => !coveredAsWallClock(formatWireMinute(m, LA), bounds));
  const missedInstant = minutes.filter(
    (m) => !ranges.some(([lo, hi]) => lo <= m.getTime() && m.getTime() <= hi),
  );
  expect(missedWall.map((m) => m.toISOString())).toEqual([]);
  expect(missedInstant.map((m) => m.toISOString())).toEqual([]);
}

/** Halves every window of `windows` once (where it can be), as adaptive splitting does. */
function halved(windows: readonly Window[]): Window[] {
  return windows.flatMap((w) => splitWindow(w, 1, LA) ?? [w]);
}

describe('minute windows and their wire bounds', () => {
  it('step in absolute time, consecutive windows sharing their boundary minute', () => {
    const windows = minuteWindows(new Date('2026-07-01T17:00:00Z'), new Date('2026-07-01T19:30:00Z'), 60);
    expect(windows.map((w) => wireMinuteBounds(w, LA))).toEqual([
      { beginDate: '2026-07-01T10:00', endDate: '2026-07-01T11:00' },
      { beginDate: '2026-07-01T11:00', endDate: '2026-07-01T12:00' },
      { beginDate: '2026-07-01T12:00', endDate: '2026-07-01T12:30' },
    ]);
  });

  it.each([1, 7, 30, 60, 90, 240])(
    'cover every minute of 2026-03-08 (spring forward) with %i-minute windows, halved or not',
    (size) => {
      const { start, end } = wallClockDay(new Date('2026-03-08T12:00:00Z'), LA);
      expect(end.getTime() - start.getTime()).toBe(23 * 60 * MINUTE);
      const windows = minuteWindows(start, end, size);
      expectFullCoverage(start, end, windows);
      expectFullCoverage(start, end, halved(windows));
    },
  );

  it.each([1, 7, 30, 60, 90, 240])(
    'cover every minute of 2026-11-01 (fall back), both 01:xx hours, with %i-minute windows, halved or not',
    (size) => {
      const { start, end } = wallClockDay(new Date('2026-11-01T12:00:00Z'), LA);
      expect(end.getTime() - start.getTime()).toBe(25 * 60 * MINUTE);
      const windows = minuteWindows(start, end, size);
      expectFullCoverage(start, end, windows);
      expectFullCoverage(start, end, halved(windows));
    },
  );

  it('cover a lookback plan that starts and ends inside the repeated hour', () => {
    const cursor = new Date('2026-11-01T09:42:05Z'); // 01:42 PST, the second occurrence
    for (const size of [5, 25, 60]) {
      const windows = planLookbackMinutes({
        cursor,
        start: cursor,
        now: new Date('2026-11-01T09:50:00Z'),
        lookbackMinutes: 85, // back to 08:17Z, 01:17 PDT, the first occurrence
        windowSize: size,
      });
      expectFullCoverage(new Date('2026-11-01T08:17:00Z'), new Date('2026-11-01T09:50:00Z'), windows);
    }
  });

  it('widen a bound in the repeated hour just out of it, and leave other bounds alone', () => {
    // 08:30Z = 01:30 PDT, 09:30Z = 01:30 PST: the same wall-clock minute twice.
    const inside: Window = {
      kind: 'minute',
      start: new Date('2026-11-01T08:30:00Z'),
      end: new Date('2026-11-01T09:30:00Z'),
    };
    expect(wireMinuteBounds(inside, LA)).toEqual({
      beginDate: '2026-11-01T00:59',
      endDate: '2026-11-01T02:00',
    });
    const after: Window = {
      kind: 'minute',
      start: new Date('2026-11-01T10:00:00Z'),
      end: new Date('2026-11-01T11:00:00Z'),
    };
    expect(wireMinuteBounds(after, LA)).toEqual({
      beginDate: '2026-11-01T02:00',
      endDate: '2026-11-01T03:00',
    });
  });

  it('read no extra hour across the spring change, whose wall-clock times are all unambiguous', () => {
    const across: Window = {
      kind: 'minute',
      start: new Date('2026-03-08T09:30:00Z'), // 01:30 PST
      end: new Date('2026-03-08T10:30:00Z'), // 03:30 PDT
    };
    expect(wireMinuteBounds(across, LA)).toEqual({
      beginDate: '2026-03-08T01:30',
      endDate: '2026-03-08T03:30',
    });
  });

  it('never name a wall-clock minute that does not exist (the skipped 02:xx of 2026-03-08)', () => {
    const { start, end } = wallClockDay(new Date('2026-03-08T12:00:00Z'), LA);
    for (const w of minuteWindows(start, end, 15)) {
      const { beginDate, endDate } = wireMinuteBounds(w, LA);
      expect(instantsOfWallMinute(beginDate, LA).length).toBeGreaterThan(0);
      expect(instantsOfWallMinute(endDate, LA).length).toBeGreaterThan(0);
    }
  });
});

describe('day windows and their wire bounds', () => {
  it('step by calendar days in the zone, each day on the wire once, 23 h and 25 h days included', () => {
    const windows = dayWindows('2026-03-07', '2026-03-10', 1, LA);
    expect(windows.map((w) => wireDayBounds(w, LA))).toEqual(
      ['2026-03-07', '2026-03-08', '2026-03-09', '2026-03-10'].map((day) => ({
        beginDate: day,
        endDate: day,
      })),
    );
    expect(windows[1]?.start.toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(windows[2]?.start.toISOString()).toBe('2026-03-09T07:00:00.000Z');
    const autumn = dayWindows('2026-11-01', '2026-11-02', 1, LA);
    expect(autumn.map((w) => wireDayBounds(w, LA).beginDate)).toEqual(['2026-11-01', '2026-11-02']);
    expect((autumn[1]?.start.getTime() ?? 0) - (autumn[0]?.start.getTime() ?? 0)).toBe(25 * 60 * MINUTE);
  });

  it('group several days per window and leave no day out, halved or not', () => {
    const windows = dayWindows('2026-02-25', '2026-03-12', 7, LA);
    expect(windows.map((w) => wireDayBounds(w, LA))).toEqual([
      { beginDate: '2026-02-25', endDate: '2026-03-03' },
      { beginDate: '2026-03-04', endDate: '2026-03-10' },
      { beginDate: '2026-03-11', endDate: '2026-03-12' },
    ]);
    const from = new Date('2026-02-25T12:00:00Z');
    const to = new Date('2026-03-12T12:00:00Z');
    for (const plan of [windows, halved(windows)]) {
      const bounds = plan.map((w) => wireDayBounds(w, LA));
      for (const minute of minutesOf(from, to).filter((_, i) => i % 37 === 0)) {
        const day = formatWireDay(minute, LA);
        expect(bounds.some((b) => b.beginDate <= day && day <= b.endDate)).toBe(true);
      }
    }
  });
});

describe('wallClockDay', () => {
  it('gives the day name and its 23 h / 24 h / 25 h span', () => {
    const spring = wallClockDay(new Date('2026-03-08T15:00:00Z'), LA);
    expect(spring.day).toBe('2026-03-08');
    expect((spring.end.getTime() - spring.start.getTime()) / 3_600_000).toBe(23);
    const autumn = wallClockDay(new Date('2026-11-02T07:30:00Z'), LA); // 2026-11-01 23:30 PST
    expect(autumn.day).toBe('2026-11-01');
    expect((autumn.end.getTime() - autumn.start.getTime()) / 3_600_000).toBe(25);
    const plain = wallClockDay(new Date('2026-07-04T12:00:00Z'), LA);
    expect((plain.end.getTime() - plain.start.getTime()) / 3_600_000).toBe(24);
  });
});
