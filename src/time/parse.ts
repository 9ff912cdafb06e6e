import { fromZonedTime } from 'date-fns-tz';

// yyyy-MM-dd, then optionally [T or space]HH:mm[:ss[.fraction]], then optionally Z or ±HH[:]mm.
const UPSTREAM_DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?)?\s*(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

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
 * autumn hour resolves to its first occurrence (date-fns-tz); one in the skipped spring hour moves
 * forward. Throws `InvalidDateTimeError` on anything else, including impossible dates like 02-30.
 */
export function parseUpstreamDateTime(value: string, tz: string): Date {
  const match = UPSTREAM_DATE_TIME.exec(value.trim());
  if (!match) throw new InvalidDateTimeError(value);
  const [, y, mo, d, h = '00', mi = '00', s = '00', fraction = '', offset] = match;
  const parts = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  if (!validParts(parts)) throw new InvalidDateTimeError(value);
  const [year, month, day, hour, minute, second] = parts;
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  if (offset === undefined) {
    const wall = `${y}-${mo}-${d}T${h}:${mi}:${s}.${String(ms).padStart(3, '0')}`;
    return fromZonedTime(wall, tz);
  }
  const shift = offsetMinutes(offset);
  if (shift === undefined) throw new InvalidDateTimeError(value);
  const utc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  return new Date(utc - shift * 60_000);
}

function validParts([year, month, day, hour, minute, second]: readonly number[]): boolean {
  if (month === undefined || day === undefined || year === undefined) return false;
  if (month < 1 || month > 12 || day < 1) return false;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return day <= daysInMonth && (hour ?? 0) <= 23 && (minute ?? 0) <= 59 && (second ?? 0) <= 59;
}

/** Minutes east of UTC, or undefined for an impossible offset (real ones lie within ±14:00). */
function offsetMinutes(offset: string): number | undefined {
  if (offset === 'Z' || offset === 'z') return 0;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const hours = Number(digits.slice(0, 2));
  const minutes = digits.length > 2 ? Number(digits.slice(2, 4)) : 0;
  if (hours > 14 || minutes > 59) return undefined;
  return sign * (hours * 60 + minutes);
}
