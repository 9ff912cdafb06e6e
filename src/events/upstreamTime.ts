import { fromZonedTime } from 'date-fns-tz';

const HAS_OFFSET = /(?:Z|[+-]\d{2}:?\d{2})$/;

/**
 * An upstream date-time as an ISO UTC string. Values without an offset are wall-clock time in
 * `timezone` (the spec's Pacific time); null, empty or unparseable values give undefined so the
 * caller falls back to detectedAt.
 */
export function upstreamInstant(value: string | null | undefined, timezone: string): string | undefined {
  if (!value) return undefined;
  const normalised = value.replace(' ', 'T');
  const date = HAS_OFFSET.test(normalised) ? new Date(normalised) : fromZonedTime(normalised, timezone);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** The latest of several upstream times, or undefined when none parses. */
export function latestInstant(
  values: Array<string | null | undefined>,
  timezone: string,
): string | undefined {
  let latest: string | undefined;
  for (const value of values) {
    const instant = upstreamInstant(value, timezone);
    if (instant && (!latest || instant > latest)) latest = instant;
  }
  return latest;
}
