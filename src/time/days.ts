import { fromZonedTime } from 'date-fns-tz';
import { formatWireDay } from './format.ts';
import { offsetTransitions } from './zone.ts';

const HOUR = 3_600_000;

/** A calendar day in a zone: its `yyyy-MM-dd` name and the instants it spans, `[start, end)`. */
export interface WallClockDay {
  day: string;
  start: Date;
  /** The next day's start: 23 h after `start` on a spring-forward day, 25 h on a fall-back day. */
  end: Date;
}

/** The calendar day in `tz` that contains `instant`, with its first instant and the next day's. */
export function wallClockDay(instant: Date, tz: string): WallClockDay {
  const day = formatWireDay(instant, tz);
  return { day, start: startOfWallDay(day, tz), end: startOfWallDay(addDays(day, 1), tz) };
}

/** `yyyy-MM-dd` plus `days` calendar days (negative to go back). */
export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Number of calendar days from `a` to `b` (b - a), both `yyyy-MM-dd`. */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/**
 * The first instant of calendar day `day` (`yyyy-MM-dd`) in `tz`. Usually local midnight; in a zone
 * whose DST change skips midnight it is the transition instant, so no instant of the day is lost.
 */
export function startOfWallDay(day: string, tz: string): Date {
  const midnight = fromZonedTime(`${day}T00:00:00.000`, tz);
  if (formatWireDay(midnight, tz) === day && formatWireDay(new Date(midnight.getTime() - 1), tz) < day) {
    return midnight;
  }
  // Midnight does not exist (or resolved into the wrong day): the day starts at the nearby transition.
  const transition = offsetTransitions(
    new Date(midnight.getTime() - 3 * HOUR),
    new Date(midnight.getTime() + 3 * HOUR),
    tz,
  ).find((t) => formatWireDay(t, tz) === day);
  return transition ?? midnight;
}
