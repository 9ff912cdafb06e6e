import { type AmbiguousTime, isUnsetDateTime, parseUpstreamDateTime } from '../time/parse.ts';

/** How upstream wall-clock times are read: the zone, and which occurrence of a repeated hour. */
export interface UpstreamClock {
  /** IANA zone of offset-less times (config.timezone). */
  timezone: string;
  /** config.ambiguousTime; default 'later' (standard time). */
  ambiguousTime?: AmbiguousTime | undefined;
}

/**
 * An upstream date-time as an ISO UTC string, read by src/time's rule. Null, empty, "not set"
 * (0001-01-01, see isUnsetDateTime) or unparseable values give undefined so the caller falls back
 * to detectedAt.
 */
export function upstreamInstant(value: string | null | undefined, clock: UpstreamClock): string | undefined {
  if (!value || isUnsetDateTime(value)) return undefined;
  try {
    return parseUpstreamDateTime(value, clock.timezone, clock.ambiguousTime).toISOString();
  } catch {
    return undefined;
  }
}

/** The latest of several upstream times, or undefined when none parses. */
export function latestInstant(
  values: Array<string | null | undefined>,
  clock: UpstreamClock,
): string | undefined {
  let latest: string | undefined;
  for (const value of values) {
    const instant = upstreamInstant(value, clock);
    if (instant && (!latest || instant > latest)) latest = instant;
  }
  return latest;
}
