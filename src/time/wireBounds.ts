import { formatWireDay, formatWireMinute } from './format.ts';
import { instantsOfWallMinute, offsetTransitions } from './zone.ts';

/**
 * The wall-clock bounds sent upstream for a range of instants. Bounds are inclusive; the range is
 * the engine's window `[start, end]`.
 */

const MINUTE = 60_000;

/** A range of instants, as the engine's windows carry it. */
export interface InstantRange {
  start: Date;
  end: Date;
}

/** Inclusive wire bounds: `yyyy-MM-dd'T'HH:mm` for minute windows, `yyyy-MM-dd` for day windows. */
export interface WireBounds {
  beginDate: string;
  endDate: string;
}

/**
 * `yyyy-MM-dd'T'HH:mm` bounds whose wire range covers every instant of `[start, end]` across DST
 * changes, whether the upstream compares wall-clock strings or turns them into instants.
 *
 * Wall-clock time is not monotonic in autumn: after 01:59 PDT comes 01:00 PST. So `beginDate` is
 * the smallest and `endDate` the largest wall-clock minute shown by any instant of the range, and a
 * bound that falls in the repeated hour is widened out of it (begin to the minute before the hour's
 * first occurrence, end to the minute after its second), because an upstream reading "01:30" could
 * pick either occurrence. The cost is reading up to an extra hour twice a year; no bound ever names
 * a minute the spring change skips.
 */
export function wireMinuteBounds(range: InstantRange, tz: string): WireBounds {
  const { start, end } = range;
  // The wall-clock extremes sit at the ends or on either side of an offset change inside the range.
  const candidates = [start, end];
  for (const transition of offsetTransitions(start, end, tz)) {
    candidates.push(transition, new Date(transition.getTime() - MINUTE));
  }
  const walls = candidates.map((instant) => formatWireMinute(instant, tz)).sort();
  return { beginDate: widenBegin(walls[0] as string, tz), endDate: widenEnd(walls.at(-1) as string, tz) };
}

/** `yyyy-MM-dd` bounds: the wall-clock days of `start` and `end` (whole days are inclusive on the wire). */
export function wireDayBounds(range: InstantRange, tz: string): WireBounds {
  return { beginDate: formatWireDay(range.start, tz), endDate: formatWireDay(range.end, tz) };
}

/** Moves a begin bound out of a repeated hour to the last unambiguous minute before it. */
function widenBegin(wall: string, tz: string): string {
  let current = wall;
  for (let instants = instantsOfWallMinute(current, tz); instants.length > 1; ) {
    current = formatWireMinute(new Date((instants[0] as Date).getTime() - MINUTE), tz);
    instants = instantsOfWallMinute(current, tz);
  }
  return current;
}

/** Moves an end bound out of a repeated hour to the first unambiguous minute after it. */
function widenEnd(wall: string, tz: string): string {
  let current = wall;
  for (let instants = instantsOfWallMinute(current, tz); instants.length > 1; ) {
    current = formatWireMinute(new Date((instants.at(-1) as Date).getTime() + MINUTE), tz);
    instants = instantsOfWallMinute(current, tz);
  }
  return current;
}
