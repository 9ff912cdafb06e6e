import { formatInTimeZone } from 'date-fns-tz';
import { addDays, daysBetween, startOfWallDay } from '../time/days.ts';
import { formatWireDay } from '../time/format.ts';
import type { PlanInput, Window } from './types.ts';
import { plannedWindowSize } from './windowSize.ts';

/**
 * Pure window planning shared by the streams: minute windows (shipments) and day windows (the
 * day-granular streams). Bounds are inclusive, so consecutive windows overlap by one minute or one
 * day; rows are de-duplicated by key, so the overlap costs nothing and loses nothing.
 */

const MINUTE = 60_000;

/** Floors an instant to its minute. */
export function floorToMinute(date: Date): Date {
  return new Date(Math.floor(date.getTime() / MINUTE) * MINUTE);
}

/** Minute windows of `sizeMinutes` from `from` to `to` (both floored to the minute). */
export function minuteWindows(from: Date, to: Date, sizeMinutes: number): Window[] {
  const size = Math.max(1, Math.floor(sizeMinutes)) * MINUTE;
  const start = floorToMinute(from).getTime();
  const end = floorToMinute(to).getTime();
  const windows: Window[] = [];
  for (let a = start; a < end || windows.length === 0; a += size) {
    const b = Math.min(a + size, end);
    windows.push({
      kind: 'minute',
      start: new Date(a),
      end: new Date(Math.max(a, b)),
      advanceTo: new Date(b),
    });
    if (b >= end) break;
  }
  return windows;
}

/** The wall-clock day (yyyy-MM-dd) of an instant in `timezone`. */
export const dayOf = formatWireDay;

/** The first instant of a wall-clock day in `timezone` (one definition, shared with src/time). */
export const startOfDay = startOfWallDay;

/** Calendar arithmetic on yyyy-MM-dd strings (no zone involved: days, not hours). */
export { addDays, daysBetween };

/**
 * Day windows covering the wall-clock days `fromDay`..`toDay` inclusive, `sizeDays` per window.
 * Each advances the cursor to the start of its last day, which stays put while that day is today:
 * a re-run on the same day therefore leaves the cursor position unchanged.
 */
export function dayWindows(fromDay: string, toDay: string, sizeDays: number, timezone: string): Window[] {
  const size = Math.max(1, Math.floor(sizeDays));
  const windows: Window[] = [];
  for (let day = fromDay; daysBetween(day, toDay) >= 0; day = addDays(day, size)) {
    const last = daysBetween(addDays(day, size - 1), toDay) >= 0 ? addDays(day, size - 1) : toDay;
    const start = startOfDay(day, timezone);
    const end = startOfDay(last, timezone);
    windows.push({ kind: 'day', start, end, advanceTo: end });
  }
  return windows;
}

/**
 * Day windows for a stream that re-reads `rereadDays` back from today: from the cursor's day (or
 * the start, on the first run) or today minus the horizon, whichever is earlier, up to today.
 */
export function planRereadDays(args: {
  cursor: Date | undefined;
  start: Date;
  now: Date;
  rereadDays: number;
  windowSize: number;
  timezone: string;
}): Window[] {
  const today = dayOf(args.now, args.timezone);
  const horizon = addDays(today, -Math.max(0, args.rereadDays));
  const resume = dayOf(args.cursor ?? args.start, args.timezone);
  const from = daysBetween(resume, horizon) < 0 ? horizon : resume;
  return dayWindows(from, today, args.windowSize, args.timezone);
}

/**
 * `planRereadDays` for a stream's plan input: cursor and horizon from its settings, windows of the
 * adaptive size (the remembered one, at most the configured maximum; see windowSize.ts).
 */
export function rereadDayWindows(input: PlanInput, windowSize = plannedWindowSize(input)): Window[] {
  return planRereadDays({
    cursor: input.cursor.position,
    start: input.start,
    now: input.now,
    timezone: input.timezone,
    rereadDays: input.settings.rereadDays,
    windowSize,
  });
}

/**
 * Minute windows from the cursor minus the lookback (or the start, first run) up to now.
 */
export function planLookbackMinutes(args: {
  cursor: Date | undefined;
  start: Date;
  now: Date;
  lookbackMinutes: number;
  windowSize: number;
}): Window[] {
  const from = args.cursor ? new Date(args.cursor.getTime() - args.lookbackMinutes * MINUTE) : args.start;
  return minuteWindows(from, args.now, args.windowSize);
}

/** Halves a minute or day window (adaptive splitting); null when it is at `minSize` already. */
export function splitWindow(window: Window, minSize: number, timezone: string): [Window, Window] | null {
  if (window.kind === 'minute') {
    const minutes = (window.end.getTime() - window.start.getTime()) / MINUTE;
    if (minutes < 2 || minutes / 2 < minSize) return null;
    const mid = new Date(window.start.getTime() + Math.floor(minutes / 2) * MINUTE);
    return [
      { ...window, end: mid, advanceTo: window.advanceTo ? mid : undefined },
      { ...window, start: mid },
    ];
  }
  if (window.kind === 'day') {
    const first = dayOf(window.start, timezone);
    const days = daysBetween(first, dayOf(window.end, timezone)) + 1;
    if (days < 2 || days / 2 < minSize) return null;
    const leftLast = addDays(first, Math.floor(days / 2) - 1);
    const leftEnd = startOfDay(leftLast, timezone);
    return [
      { ...window, end: leftEnd, advanceTo: window.advanceTo ? leftEnd : undefined },
      { ...window, start: startOfDay(addDays(leftLast, 1), timezone) },
    ];
  }
  return null;
}

/** Human-readable window for logs, errors and the run log. */
export function describeWindow(window: Window, timezone: string): string {
  const filter = window.filter ? ` ${JSON.stringify(window.filter)}` : '';
  if (window.kind === 'snapshot') return `snapshot${filter}`;
  const fmt = window.kind === 'day' ? 'yyyy-MM-dd' : "yyyy-MM-dd'T'HH:mmXXX";
  const range = `${formatInTimeZone(window.start, timezone, fmt)}..${formatInTimeZone(window.end, timezone, fmt)}`;
  return window.kind === 'filter' ? `filter${filter}` : `${range}${filter}`;
}
