import { instantsOfWallTime, zoneOffsetMinutes } from './zone.ts';

/**
 * The one place upstream date-times become instants: the strict parser, and the fast path the
 * engine runs on every timestamp column of every row.
 */

/**
 * How to read an offset-less time in the repeated autumn hour (01:00-01:59 twice in Los Angeles):
 * its first occurrence (daylight time) or its second (standard time).
 */
export type AmbiguousTime = 'earlier' | 'later';

/**
 * Standard time: the upstream looks like a .NET service (its envelope, its `NotSet` enum values),
 * and .NET's TimeZoneInfo reads an ambiguous local time as standard time.
 */
export const DEFAULT_AMBIGUOUS_TIME: AmbiguousTime = 'later';

/**
 * The date-time syntax read everywhere (the record schemas of src/api, the published event schemas,
 * FULFILLMENT_SYNC_START, this parser): yyyy-MM-dd, then optionally [T or space]HH:mm[:ss[.fraction]],
 * then optionally Z or ±HH[:]mm. One pattern, so whatever passes a record's schema is what this
 * parser reads; impossible dates (02-30) match it and are refused by `parseUpstreamDateTime`.
 */
export const DATE_TIME_PATTERN =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/**
 * "Not set" as a .NET service writes it: `default(DateTime)` / `DateTime.MinValue`
 * (0001-01-01T00:00:00, any fraction or offset, DateTimeOffset.MinValue included) and
 * `DateTime.MaxValue` (9999-12-31T23:59:59.9999999). Such a value is no value: NULL in its
 * column (the record's `raw` keeps it as sent), never an event time. Any other date of years
 * 0002-9998 is read as written.
 */
const UNSET_DATE_TIME = /^\s*(?:0001-01-01|9999-12-31)(?:[T ]|\s*$)/;

/** Whether an upstream date-time is a "not set" sentinel (see UNSET_DATE_TIME). */
export function isUnsetDateTime(value: string): boolean {
  return UNSET_DATE_TIME.test(value);
}

/**
 * `Date.UTC`, for every year: it reads years 0-99 as 1900-1999, so those are set explicitly
 * (`setUTCFullYear` takes the year as written, month and day with it).
 */
function utcMs(year: number, month0: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): number {
  const date = new Date(Date.UTC(year, month0, day, hour, minute, second, ms));
  if (year >= 0 && year < 100) date.setUTCFullYear(year, month0, day);
  return date.getTime();
}

/** A date-time string the upstream sent that is not one; the message says what was expected. */
export class InvalidDateTimeError extends Error {
  constructor(value: string) {
    super(
      `Not a date-time: ${JSON.stringify(value.slice(0, 60))}; expected yyyy-MM-dd or yyyy-MM-ddTHH:mm[:ss[.SSS]] with an optional offset`,
    );
    this.name = 'InvalidDateTimeError';
  }
}

/**
 * Parses a date-time from an upstream answer: with an offset (or Z) it is that instant; without one it
 * is wall-clock time in `tz`; a date alone is midnight in `tz`. A wall-clock time in the repeated
 * autumn hour is read as `ambiguous` says; one in the skipped spring hour moves forward by the gap
 * (02:30 on a spring-forward day is 03:30 daylight time), as a clock that had not yet jumped meant it.
 * Throws `InvalidDateTimeError` on anything else, including impossible dates like 02-30.
 */
export function parseUpstreamDateTime(
  value: string,
  tz: string,
  ambiguous: AmbiguousTime = DEFAULT_AMBIGUOUS_TIME,
): Date {
  const match = DATE_TIME_PATTERN.exec(value.trim());
  if (!match) throw new InvalidDateTimeError(value);
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', offset] = match;
  const parts = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  if (!validParts(parts)) throw new InvalidDateTimeError(value);
  const [year, month, day, hour, minute, second] = parts;
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  const wall = utcMs(year, month - 1, day, hour, minute, second, ms);
  if (offset === undefined) return new Date(wallClockInstant(wall, tz, ambiguous));
  const shift = offsetMinutes(offset);
  if (shift === undefined) throw new InvalidDateTimeError(value);
  return new Date(wall - shift * MINUTE);
}

/**
 * The instant at which `tz` shows wall-clock time `wall` (its fields written as if UTC): the only
 * one, the earlier or later of two in the repeated hour, or, in the skipped hour, the wall time read
 * with the offset in force before the gap (so it lands after the gap).
 */
export function wallClockInstant(wall: number, tz: string, ambiguous: AmbiguousTime): number {
  const instants = instantsOfWallTime(wall, tz);
  if (instants.length === 0) return wall - offsetBefore(wall, tz) * MINUTE;
  const pick = ambiguous === 'earlier' ? instants[0] : instants[instants.length - 1];
  return pick as number;
}

/** The offset (minutes east) in force a day before wall time `wall`: the one before a nearby gap. */
function offsetBefore(wall: number, tz: string): number {
  return zoneOffsetMinutes(new Date(wall - 24 * HOUR), tz);
}

const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
/**
 * `zone|yyyy-MM-ddTHH` -> UTC offset in ms of that wall-clock hour, or null when the hour holds an
 * offset change (skipped, repeated, or a change off the hour): those values take the exact path.
 */
const hourOffsets = new Map<string, number | null>();

/**
 * `parseUpstreamDateTime` for the engine's hot path: null for null, undefined, '' and a "not set"
 * sentinel (`isUnsetDateTime`). Offset-less
 * values reuse the offset of their wall-clock hour, since resolving a zone per value costs ~30 us
 * and a backfill parses millions of them; an hour that holds an offset change is never cached, so
 * the repeated hour is always read as `ambiguous` says.
 */
export function parseDateTime(
  value: unknown,
  tz: string,
  ambiguous: AmbiguousTime = DEFAULT_AMBIGUOUS_TIME,
): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const text = String(value);
  if (isUnsetDateTime(text)) return null;
  const m = WALL_CLOCK.exec(text);
  if (!m) return parseUpstreamDateTime(text, tz, ambiguous);
  const [, y, mo, d, h, mi, s = '00', fraction = ''] = m;
  if (Number(mi) > 59 || Number(s) > 59) return parseUpstreamDateTime(text, tz, ambiguous);
  const hour = `${y}-${mo}-${d}T${h}`;
  const wallHour = utcMs(Number(y), Number(mo) - 1, Number(d), Number(h));
  const offset = plainHourOffset(hour, wallHour, tz);
  if (offset === null) return parseUpstreamDateTime(text, tz, ambiguous);
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  return new Date(wallHour - offset + Number(mi) * MINUTE + Number(s) * 1000 + ms);
}

/** The offset in ms of a wall-clock hour shown exactly once, all of it at one offset; else null. */
function plainHourOffset(hour: string, wallHour: number, tz: string): number | null {
  const key = `${tz}|${hour}`;
  const cached = hourOffsets.get(key);
  if (cached !== undefined) return cached;
  parseUpstreamDateTime(`${hour}:00`, tz); // throws on an impossible date, which is then never cached
  const first = instantsOfWallTime(wallHour, tz);
  const last = instantsOfWallTime(wallHour + HOUR - 1, tz);
  const plain =
    first.length === 1 && last.length === 1 && (last[0] as number) - (first[0] as number) === HOUR - 1;
  const offset = plain ? wallHour - (first[0] as number) : null;
  if (hourOffsets.size > 100_000) hourOffsets.clear();
  hourOffsets.set(key, offset);
  return offset;
}

function validParts([year, month, day, hour, minute, second]: readonly number[]): boolean {
  if (month === undefined || day === undefined || year === undefined) return false;
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(utcMs(year, month, 0)).getUTCDate();
  return day <= daysInMonth && (hour ?? 0) <= 23 && (minute ?? 0) <= 59 && (second ?? 0) <= 59;
}

/** Minutes east of UTC, or undefined for an impossible offset (real ones lie within ±14:00). */
function offsetMinutes(offset: string): number | undefined {
  if (offset === 'Z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 14 || minutes > 59) return undefined;
  return sign * (hours * 60 + minutes);
}
