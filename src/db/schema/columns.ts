import { jsonb, numeric, pgSchema, text, timestamp } from 'drizzle-orm/pg-core';

/** Synced upstream records: what BI tools read. */
export const fulfillmentSchema = pgSchema('fulfillment');
/**
 * The model for questions: facts and aggregates over `fulfillment` that BI users query (read by the
 * reader role, the columns marked in src/db/pii/marks/analytics.ts). Never a consumer name, email,
 * phone or street line.
 */
export const analyticsSchema = pgSchema('analytics');
/** The worker's own state: cursors, run log, rejected records, event outbox, webhooks, backfills. */
export const syncSchema = pgSchema('sync');

/** A spec `date-time`: always timestamptz, read back as a JS Date. */
export const tz = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A spec `number`. Mode 'number' is lossless for everything we write: upstream values are JSON
 * numbers (doubles), `String(double)` is the shortest decimal that round-trips, numeric stores that
 * decimal exactly, and `Number()` reads back the same double. (Mode 'string' would also lose
 * nothing, but would make every diff compare '12.50' with 12.5.)
 */
export const num = (name: string) => numeric(name, { mode: 'number' });

/**
 * A text part of a natural key: never null. A key part that arrives null is stored as ''
 * (docs/warehouse.md); see `NULL_KEY_TEXT` in src/db/keys.ts.
 */
export const keyText = (name: string) => text(name).notNull();

/** When the row was last written by a sync that changed it. */
export const syncedAt = () => tz('synced_at').notNull().defaultNow();

/** The record as received, with the members the spec does not detail. */
export const raw = () => jsonb('raw');

/**
 * A hash of `raw` kept by the engine: an unchanged record is recognised by comparing it, without
 * reading or re-serialising every stored record on each re-sync.
 */
export const contentHash = () => text('content_hash');

/** When a row of the worker's own state was created and last changed. */
export const rowTimes = () => ({
  createdAt: tz('created_at').notNull().defaultNow(),
  updatedAt: tz('updated_at').notNull().defaultNow(),
});
