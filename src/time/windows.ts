import { addDays, startOfWallDay } from './days.ts';
import { formatWireDay, formatWireMinute } from './format.ts';
import { instantsOfWallMinute, offsetTransitions } from './zone.ts';

const MINUTE = 60_000;

/**
 * One window of a time range. `start`/`end` are absolute instants: the window is responsible for
 * [start, end) (the last one for [start, to]), so `end` is what a cursor may advance to.
 * `beginParam`/`endParam` are the inclusive wall-clock bounds sent upstream.
 */
export interface TimeWindow {
  start: Date;
  end: Date;
  beginParam: string;
  endParam: string;
}

/** What `splitIntoWindows` splits: `size` minutes or calendar days per window, in zone `tz`. */
export interface SplitOptions {
  from: Date;
  to: Date;
  size: number;
  unit: 'minute' | 'day';
  tz: string;
}

/**
 * Splits [from, to] into windows whose wire ranges together cover every instant of it, across DST
 * changes. Minute windows (`yyyy-MM-dd'T'HH:mm`) step in absolute time; day windows (`yyyy-MM-dd`)
 * step by calendar days in `tz`. Empty when `from` is after `to`.
 */
export function splitIntoWindows(options: SplitOptions): TimeWindow[] {
  if (!(Number.isInteger(options.size) && options.size >= 1)) {
    throw new Error(`Window size must be a whole number >= 1, got ${options.size}`);
  }
  return options.unit === 'day' ? dayWindows(options) : minuteWindows(options);
}

/**
 * Minute windows of `size` minutes in absolute time. Consecutive windows share their boundary minute
 * (bounds are inclusive; rows are de-duplicated by key), so nothing between them is lost.
 *
 * Wall-clock bounds are not monotonic in autumn: after 01:59 PDT comes 01:00 PST. So `beginParam` is
 * the smallest and `endParam` the largest wall-clock minute shown by any instant of the window, and a
 * bound that falls in the repeated hour is widened out of it (begin to the minute before the hour's
 * first occurrence, end to the minute after its second), because an upstream reading "01:30" could pick
 * either occurrence. The cost is reading up to an extra hour twice a year; the gain is that the wire
 * range covers the window whether the upstream compares wall-clock strings or instants.
 */
export function minuteWindows(options: Omit<SplitOptions, 'unit'>): TimeWindow[] {
  const { from, to, size, tz } = options;
  const windows: TimeWindow[] = [];
  if (from.getTime() > to.getTime()) return windows;
  let start = from.getTime();
  for (;;) {
    const end = Math.min(start + size * MINUTE, to.getTime());
    windows.push(minuteWindow(new Date(start), new Date(end), tz));
    if (end >= to.getTime()) return windows;
    start = end;
  }
}

function minuteWindow(start: Date, end: Date, tz: string): TimeWindow {
  // The wall-clock extremes sit at the ends or on either side of an offset change inside the window.
  const candidates = [start, end];
  for (const transition of offsetTransitions(start, end, tz)) {
    candidates.push(transition, new Date(transition.getTime() - MINUTE));
  }
  const walls = candidates.map((instant) => formatWireMinute(instant, tz)).sort();
  return {
    start,
    end,
    beginParam: widenBegin(walls[0]!, tz),
    endParam: widenEnd(walls[walls.length - 1]!, tz),
  };
}

/** Moves a begin bound out of a repeated hour to the last unambiguous minute before it. */
function widenBegin(wall: string, tz: string): string {
  let current = wall;
  for (let instants = instantsOfWallMinute(current, tz); instants.length > 1; ) {
    current = formatWireMinute(new Date(instants[0]!.getTime() - MINUTE), tz);
    instants = instantsOfWallMinute(current, tz);
  }
  return current;
}

/** Moves an end bound out of a repeated hour to the first unambiguous minute after it. */
function widenEnd(wall: string, tz: string): string {
  let current = wall;
  for (let instants = instantsOfWallMinute(current, tz); instants.length > 1; ) {
    current = formatWireMinute(new Date(instants[instants.length - 1]!.getTime() + MINUTE), tz);
    instants = instantsOfWallMinute(current, tz);
  }
  return current;
}

/**
 * Day windows of `size` calendar days in `tz` (a day lasts 23 h or 25 h across DST), from the day of
 * `from` through the day of `to`. Whole days are inclusive on the wire, so windows need no overlap:
 * `endParam` is the window's last day and the next window begins the day after. The first window
 * starts at local midnight of `from`'s day; the last ends at `to`.
 */
export function dayWindows(options: Omit<SplitOptions, 'unit'>): TimeWindow[] {
  const { from, to, size, tz } = options;
  const windows: TimeWindow[] = [];
  if (from.getTime() > to.getTime()) return windows;
  const lastDay = formatWireDay(to, tz);
  for (let day = formatWireDay(from, tz); day <= lastDay; day = addDays(day, size)) {
    const windowLastDay = minDay(addDays(day, size - 1), lastDay);
    const nextStart = startOfWallDay(addDays(windowLastDay, 1), tz);
    windows.push({
      start: startOfWallDay(day, tz),
      end: windowLastDay === lastDay ? to : nextStart,
      beginParam: day,
      endParam: windowLastDay,
    });
  }
  return windows;
}

function minDay(a: string, b: string): string {
  return a < b ? a : b;
}
