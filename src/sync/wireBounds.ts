import { formatInTimeZone } from 'date-fns-tz';
import type { Window } from './types.ts';

const HOUR = 3_600_000;

/** Whether the zone's offset changes within an hour of `at` (a DST switch is near). */
function nearOffsetChange(at: Date, timezone: string): boolean {
  // Offsets via formatting: date-fns-tz's getTimezoneOffset misreports around the switch.
  const offset = (d: Date) => formatInTimeZone(d, timezone, 'xxx');
  const here = offset(at);
  return offset(new Date(at.getTime() - HOUR)) !== here || offset(new Date(at.getTime() + HOUR)) !== here;
}

/**
 * Wall-clock `yyyy-MM-dd'T'HH:mm` bounds for a minute window. Wall-clock times near a DST switch
 * are ambiguous (November's 01:00-02:00 happens twice), and the server may read either occurrence;
 * so a bound within an hour of a switch is widened by an hour outward. Reading more is harmless
 * (rows are de-duplicated by key); reading less would lose data.
 */
export function wireMinuteBounds(window: Window, timezone: string): { beginDate: string; endDate: string } {
  const begin = nearOffsetChange(window.start, timezone)
    ? new Date(window.start.getTime() - HOUR)
    : window.start;
  const end = nearOffsetChange(window.end, timezone) ? new Date(window.end.getTime() + HOUR) : window.end;
  const fmt = "yyyy-MM-dd'T'HH:mm";
  return { beginDate: formatInTimeZone(begin, timezone, fmt), endDate: formatInTimeZone(end, timezone, fmt) };
}

/** Wall-clock `yyyy-MM-dd` bounds of a day window. */
export function wireDayBounds(window: Window, timezone: string): { beginDate: string; endDate: string } {
  return {
    beginDate: formatInTimeZone(window.start, timezone, 'yyyy-MM-dd'),
    endDate: formatInTimeZone(window.end, timezone, 'yyyy-MM-dd'),
  };
}
