import { DAY_WINDOW_STREAMS } from '../config/streamDefaults.ts';

/** Pacific: the zone of the API and of every day, week and month in schema analytics. */
export const ANALYTICS_ZONE = 'America/Los_Angeles';

const quoted = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/**
 * SQL: one row per stream (`stream`, `as_of`): the instant up to which every scope of the stream
 * has its upstream data stored, as `fulfillment-sync status` reads sync.cursors. A minute-window
 * stream has read up to its cursor; a day-window stream's cursor is the start of the last day it
 * read, which it read up to its last success (or the day's end); snapshot and detail streams are
 * as of their last success. Null while one of its scopes has never stored anything.
 */
export const STREAM_COVERAGE_SQL = `
  SELECT c.stream,
         CASE WHEN bool_or(x.as_of IS NULL) THEN NULL ELSE min(x.as_of) END AS as_of
    FROM sync.cursors c
   CROSS JOIN LATERAL (
     SELECT CASE WHEN c.stream IN (${quoted(DAY_WINDOW_STREAMS)}) AND c.position_at IS NOT NULL
                 THEN least(c.last_success_at,
                            (((c.position_at AT TIME ZONE '${ANALYTICS_ZONE}')::date + 1)::timestamp
                              AT TIME ZONE '${ANALYTICS_ZONE}'))
                 ELSE coalesce(c.position_at, c.last_success_at) END AS as_of) x
   GROUP BY c.stream`;

/**
 * SQL: the least of `values` (SQL expressions), or null when any is null (Postgres' least() skips
 * nulls: an unknown instant must not vanish into a known one).
 */
export function leastOrNull(values: readonly string[]): string {
  if (values.length === 0) return 'NULL::timestamptz';
  if (values.length === 1) return values[0]!;
  return `CASE WHEN ${values.map((v) => `(${v}) IS NULL`).join(' OR ')} THEN NULL ELSE least(${values.join(', ')}) END`;
}
