import { formatInTimeZone } from 'date-fns-tz';

/**
 * Time-zone facts the window helpers need: the UTC offset at an instant, where the offset changes
 * (DST), and which instants show a given wall-clock minute (two of them in the repeated autumn hour).
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Offset changes are months apart in every real zone; sampling at this step cannot skip a pair. */
const SAMPLE_STEP = 6 * HOUR;

/** The UTC offset of `tz` at `instant`, in minutes east of UTC (Los Angeles in winter: -480). */
export function zoneOffsetMinutes(instant: Date, tz: string): number {
  const text = formatInTimeZone(instant, tz, 'xxx'); // e.g. -08:00
  const sign = text.startsWith('-') ? -1 : 1;
  return sign * (Number(text.slice(1, 3)) * 60 + Number(text.slice(4, 6)));
}

/** Instants T in (from, to] where the offset differs from the minute before: the first minute of a new offset. */
export function offsetTransitions(from: Date, to: Date, tz: string): Date[] {
  const found: Date[] = [];
  let left = from.getTime();
  let leftOffset = zoneOffsetMinutes(from, tz);
  while (left < to.getTime()) {
    const right = Math.min(left + SAMPLE_STEP, to.getTime());
    const rightOffset = zoneOffsetMinutes(new Date(right), tz);
    if (rightOffset !== leftOffset) found.push(new Date(firstMinuteOf(left, right, rightOffset, tz)));
    left = right;
    leftOffset = rightOffset;
  }
  return found;
}

/** Binary search (minute precision) for the first minute in (lo, hi] that already has offset `after`. */
function firstMinuteOf(lo: number, hi: number, after: number, tz: string): number {
  let low = Math.floor(lo / MINUTE);
  let high = Math.ceil(hi / MINUTE);
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (zoneOffsetMinutes(new Date(mid * MINUTE), tz) === after) high = mid;
    else low = mid;
  }
  return high * MINUTE;
}

/**
 * Every instant (epoch ms, ascending) at which `tz` shows wall-clock time `wall`, given as the epoch
 * ms of those same fields in UTC: usually one, two in the repeated autumn hour, none in the skipped
 * spring hour.
 */
export function instantsOfWallTime(wall: number, tz: string): number[] {
  // Any offset in force near that wall-clock time is in force within a day of it.
  const offsets = new Set([-1, 0, 1].map((days) => zoneOffsetMinutes(new Date(wall + days * 24 * HOUR), tz)));
  const hits = [...offsets]
    .map((offset) => ({ offset, instant: wall - offset * MINUTE }))
    .filter(({ offset, instant }) => zoneOffsetMinutes(new Date(instant), tz) === offset)
    .map(({ instant }) => instant);
  return [...new Set(hits)].sort((a, b) => a - b);
}

/**
 * Every instant (whole minutes, ascending) whose wall-clock minute in `tz` is `wall`
 * ("yyyy-MM-dd'T'HH:mm"): usually one, two in the repeated autumn hour, none in the skipped spring hour.
 */
export function instantsOfWallMinute(wall: string, tz: string): Date[] {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(wall);
  if (!match) throw new Error(`Not a wall-clock minute (yyyy-MM-ddTHH:mm): ${JSON.stringify(wall)}`);
  const [y, mo, d, h, mi] = match.slice(1).map(Number) as [number, number, number, number, number];
  return instantsOfWallTime(Date.UTC(y, mo - 1, d, h, mi), tz).map((t) => new Date(t));
}
