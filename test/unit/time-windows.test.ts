import { describe, expect, it } from 'vitest';
import { wallClockDay } from '../../src/time/days.ts';
import { formatWireDay, formatWireMinute } from '../../src/time/format.ts';
import { splitIntoWindows, type TimeWindow } from '../../src/time/windows.ts';
import { instantsOfWallMinute } from '../../src/time/zone.ts';

const LA = 'America/Los_Angeles';
const MINUTE = 60_000;

/** Every whole minute in [from, to]. */
function minutesOf(from: Date, to: Date): Date[] {
  const out: Date[] = [];
  for (let t = Math.ceil(from.getTime() / MINUTE) * MINUTE; t <= to.getTime(); t += MINUTE)
    out.push(new Date(t));
  return out;
}

/** Covered when the upstream compares wall-clock strings (either occurrence of the repeated hour counts). */
function coveredAsWallClock(wall: string, windows: TimeWindow[]): boolean {
  return windows.some((w) => w.beginParam <= wall && wall <= w.endParam);
}

/**
 * The instant range a window's wire bounds mean when the upstream turns each bound into an instant and
 * picks the worst occurrence for us: the latest begin and the earliest end (inclusive to hh:mm:59.999).
 */
function strictInstantRange(w: TimeWindow): [number, number] {
  const begins = instantsOfWallMinute(w.beginParam, LA);
  const ends = instantsOfWallMinute(w.endParam, LA);
  const latestBegin = begins[begins.length - 1];
  const earliestEnd = ends[0];
  if (!latestBegin || !earliestEnd) return [Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY];
  return [latestBegin.getTime(), earliestEnd.getTime() + MINUTE - 1];
}

function expectFullCoverage(from: Date, to: Date, windows: TimeWindow[]): void {
  const ranges = windows.map(strictInstantRange);
  const minutes = minutesOf(from, to);
  const missedWall = minutes.filter((m) => !coveredAsWallClock(formatWireMinute(m, LA), windows));
  const missedInstant = minutes.filter(
    (m) => !ranges.some(([lo, hi]) => lo <= m.getTime() && m.getTime() <= hi),
  );
  expect(missedWall.map((m) => m.toISOString())).toEqual([]);
  expect(missedInstant.map((m) => m.toISOString())).toEqual([]);
}

describe('splitIntoWindows, minute unit', () => {
  it('steps in absolute time, consecutive windows sharing their boundary minute, the last ending at to', () => {
    const from = new Date('2026-07-01T17:00:00Z');
    const to = new Date('2026-07-01T19:30:00Z');
    const windows = splitIntoWindows({ from, to, size: 60, unit: 'minute', tz: LA });
    expect(windows.map((w) => [w.beginParam, w.endParam])).toEqual([
      ['2026-07-01T10:00', '2026-07-01T11:00'],
      ['2026-07-01T11:00', '2026-07-01T12:00'],
      ['2026-07-01T12:00', '2026-07-01T12:30'],
    ]);
    expect(windows[0]!.start).toEqual(from);
    expect(windows[2]!.end).toEqual(to);
    expect(windows[1]!.start).toEqual(windows[0]!.end);
  });

  it('returns one window when from equals to and none when from is after to', () => {
    const at = new Date('2026-07-01T17:00:00Z');
    expect(splitIntoWindows({ from: at, to: at, size: 60, unit: 'minute', tz: LA })).toHaveLength(1);
    expect(
      splitIntoWindows({ from: at, to: new Date(at.getTime() - 1), size: 60, unit: 'minute', tz: LA }),
    ).toEqual([]);
  });

  it('rejects a window size below 1', () => {
    const at = new Date('2026-07-01T17:00:00Z');
    expect(() => splitIntoWindows({ from: at, to: at, size: 0, unit: 'minute', tz: LA })).toThrow(/size/);
  });

  it.each([1, 7, 30, 60, 90, 240])(
    'covers every minute of 2026-03-08 (spring forward) with %i-minute windows',
    (size) => {
      const { start, end } = wallClockDay(new Date('2026-03-08T12:00:00Z'), LA);
      expect(end.getTime() - start.getTime()).toBe(23 * 60 * MINUTE);
      const windows = splitIntoWindows({ from: start, to: end, size, unit: 'minute', tz: LA });
      expectFullCoverage(start, end, windows);
    },
  );

  it.each([1, 7, 30, 60, 90, 240])(
    'covers every minute of 2026-11-01 (fall back), both 01:xx hours, with %i-minute windows',
    (size) => {
      const { start, end } = wallClockDay(new Date('2026-11-01T12:00:00Z'), LA);
      expect(end.getTime() - start.getTime()).toBe(25 * 60 * MINUTE);
      const windows = splitIntoWindows({ from: start, to: end, size, unit: 'minute', tz: LA });
      expectFullCoverage(start, end, windows);
    },
  );

  it('covers unaligned ranges that start or end inside the repeated hour', () => {
    const from = new Date('2026-11-01T08:17:31Z'); // 01:17 PDT, first occurrence
    const to = new Date('2026-11-01T09:42:05Z'); // 01:42 PST, second occurrence
    for (const size of [5, 25, 60]) {
      expectFullCoverage(from, to, splitIntoWindows({ from, to, size, unit: 'minute', tz: LA }));
    }
  });

  it('widens a bound in the repeated hour out of it, and leaves other bounds alone', () => {
    const from = new Date('2026-11-01T08:30:00Z'); // 01:30 PDT
    const to = new Date('2026-11-01T09:30:00Z'); // 01:30 PST
    const [only] = splitIntoWindows({ from, to, size: 60, unit: 'minute', tz: LA });
    expect(only).toMatchObject({ beginParam: '2026-11-01T00:59', endParam: '2026-11-01T02:00' });
    const after = splitIntoWindows({
      from: new Date('2026-11-01T10:00:00Z'),
      to: new Date('2026-11-01T11:00:00Z'),
      size: 60,
      unit: 'minute',
      tz: LA,
    });
    expect(after.map((w) => [w.beginParam, w.endParam])).toEqual([['2026-11-01T02:00', '2026-11-01T03:00']]);
  });

  it('never emits a wall-clock minute that does not exist (the skipped 02:xx of 2026-03-08)', () => {
    const { start, end } = wallClockDay(new Date('2026-03-08T12:00:00Z'), LA);
    const windows = splitIntoWindows({ from: start, to: end, size: 15, unit: 'minute', tz: LA });
    for (const w of windows) {
      expect(instantsOfWallMinute(w.beginParam, LA).length).toBeGreaterThan(0);
      expect(instantsOfWallMinute(w.endParam, LA).length).toBeGreaterThan(0);
    }
  });
});

describe('splitIntoWindows, day unit', () => {
  it('steps by calendar days in the zone, each day on the wire once, 23 h and 25 h days included', () => {
    const from = new Date('2026-03-07T20:00:00Z'); // 2026-03-07 12:00 PST
    const to = new Date('2026-03-10T20:00:00Z');
    const windows = splitIntoWindows({ from, to, size: 1, unit: 'day', tz: LA });
    expect(windows.map((w) => w.beginParam)).toEqual([
      '2026-03-07',
      '2026-03-08',
      '2026-03-09',
      '2026-03-10',
    ]);
    expect(windows.every((w) => w.beginParam === w.endParam)).toBe(true);
    expect(windows[1]!.start.toISOString()).toBe('2026-03-08T08:00:00.000Z');
    expect(windows[1]!.end.toISOString()).toBe('2026-03-09T07:00:00.000Z');
    expect(windows[3]!.end).toEqual(to);

    const autumn = splitIntoWindows({
      from: new Date('2026-11-01T07:00:00Z'),
      to: new Date('2026-11-02T08:00:00Z'),
      size: 1,
      unit: 'day',
      tz: LA,
    });
    expect(autumn.map((w) => w.beginParam)).toEqual(['2026-11-01', '2026-11-02']);
    expect(autumn[0]!.end.getTime() - autumn[0]!.start.getTime()).toBe(25 * 60 * MINUTE);
  });

  it('groups several days per window and leaves no day out', () => {
    const from = new Date('2026-02-25T12:00:00Z');
    const to = new Date('2026-03-12T12:00:00Z');
    const windows = splitIntoWindows({ from, to, size: 7, unit: 'day', tz: LA });
    expect(windows.map((w) => [w.beginParam, w.endParam])).toEqual([
      ['2026-02-25', '2026-03-03'],
      ['2026-03-04', '2026-03-10'],
      ['2026-03-11', '2026-03-12'],
    ]);
    for (const minute of minutesOf(from, to).filter((_, i) => i % 37 === 0)) {
      const day = formatWireDay(minute, LA);
      expect(windows.some((w) => w.beginParam <= day && day <= w.endParam)).toBe(true);
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
