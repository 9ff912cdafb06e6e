/** Phrases the comments of schema analytics share. */

/** How a table the worker keeps follows its sources. */
export const KEPT =
  'A table the worker keeps: what a sync changes in its sources is queued with it and taken in by a refresh about every minute, which recomputes only what changed (analytics.freshness says as of when).';

/** How a plain view over kept tables follows them. */
export const FOLLOWS = (tables: string) =>
  `A plain view over ${tables} (kept by the worker: see analytics.freshness) and the synced tables it names.`;

export const PACIFIC_DAY = (of: string) => `Calendar day of ${of} in America/Los_Angeles (the API's zone).`;
export const KEY_OR_EMPTY = (what: string) => `${what}; '' groups the rows without one.`;
export const NOTHING_PERSONAL = 'No consumer name, email, phone or street line.';
