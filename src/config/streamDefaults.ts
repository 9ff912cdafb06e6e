import type { StreamName, StreamSettings } from './types.ts';

/**
 * Per-stream defaults (the stream table of docs/configuration.md); FULFILLMENT_STREAMS overrides any field per stream.
 * `windowSize` is the largest window a read starts with (minutes for shipments, calendar days for
 * the day-window streams): adaptive splitting halves it while answers are too large and remembers
 * what worked, so the default is large: a month of shipment updates, and for the re-reading
 * day-window streams their whole horizon and today in one call (`rereadDays + 1`, kept in step
 * when only `rereadDays` is overridden, see `wholeHorizon`).
 */
/** Freshness target of the event-bearing streams: a change reaches subscribers within a minute. */
const MINUTE = 60;

export const STREAM_DEFAULTS: Readonly<Record<StreamName, Readonly<StreamSettings>>> = Object.freeze({
  products: settings({ cadenceMinutes: 1440, freshnessSeconds: 86_400 }),
  inventory: settings({ cadenceMinutes: 15, freshnessSeconds: MINUTE }),
  // One day per call (a row carries no date); today and yesterday are re-read. A first load reads
  // back to the sync start, at most 90 days (one call per day): the daily inventory series
  // (analytics.daily_inventory) is reconstructed from it, so a new install shows months of stock
  // rather than one point (older days: `backfill --stream inventory_activity`).
  inventory_activity: settings({ cadenceMinutes: 60, rereadDays: 1, historyDays: 90 }),
  transfers_in: settings({ cadenceMinutes: 15, freshnessSeconds: MINUTE, rereadDays: 90, windowSize: 91 }),
  transfers_out: settings({ cadenceMinutes: 60, freshnessSeconds: MINUTE, rereadDays: 30, windowSize: 31 }),
  // Minute windows from the cursor minus a 2 h lookback, for late scans; a first load of the
  // default 30 days in one call where the answer fits (adaptive splitting takes care of the rest).
  shipments: settings({
    cadenceMinutes: 5,
    freshnessSeconds: MINUTE,
    lookbackMinutes: 120,
    windowSize: 31 * 1440,
  }),
  returns: settings({ cadenceMinutes: 15, freshnessSeconds: MINUTE, rereadDays: 30, windowSize: 31 }),
  invoices: settings({ cadenceMinutes: 1440, freshnessSeconds: MINUTE, rereadDays: 90, windowSize: 91 }),
  // 0: on demand only, driven by changed shipments and returns.
  orders: settings({ cadenceMinutes: 0 }),
});

/**
 * Streams whose windows are calendar days in FULFILLMENT_TIMEZONE: their cursor is the start of the
 * last day read (a local midnight), while that day's run read it up to the moment it ran.
 */
export const DAY_WINDOW_STREAMS: readonly StreamName[] = Object.freeze([
  'inventory_activity',
  'transfers_in',
  'transfers_out',
  'returns',
  'invoices',
]);

/** Day-window streams that re-read a horizon in one window by default. */
export const WHOLE_HORIZON_STREAMS: readonly StreamName[] = Object.freeze([
  'transfers_in',
  'transfers_out',
  'returns',
  'invoices',
]);

function settings(partial: Partial<StreamSettings> & { cadenceMinutes: number }): Readonly<StreamSettings> {
  return Object.freeze({
    cadenceIsExplicit: false,
    freshnessSeconds: 0,
    lookbackMinutes: 0,
    rereadDays: 0,
    historyDays: 0,
    windowSize: 1,
    minWindowSize: 1,
    ...partial,
  });
}
