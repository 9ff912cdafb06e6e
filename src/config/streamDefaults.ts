import type { StreamName, StreamSettings } from './types.ts';

/**
 * Per-stream defaults of CONTRACT.md section 3; FULFILLMENT_STREAMS overrides any field per stream.
 * Window sizes are minutes for shipments and calendar days for the day-window streams. Where the
 * contract names no window size, 7 days is used: few calls per run, and adaptive splitting halves a
 * window whose answer is too large anyway.
 */
export const STREAM_DEFAULTS: Readonly<Record<StreamName, Readonly<StreamSettings>>> = Object.freeze({
  products: settings({ cadenceMinutes: 1440 }),
  inventory: settings({ cadenceMinutes: 15 }),
  // One day per call; today and yesterday are re-read.
  inventory_activity: settings({ cadenceMinutes: 60, rereadDays: 1 }),
  transfers_in: settings({ cadenceMinutes: 15, rereadDays: 90, windowSize: 7 }),
  transfers_out: settings({ cadenceMinutes: 60, rereadDays: 30, windowSize: 7 }),
  // Minute windows from the cursor minus a 2 h lookback, for late scans.
  shipments: settings({ cadenceMinutes: 5, lookbackMinutes: 120, windowSize: 60 }),
  returns: settings({ cadenceMinutes: 15, rereadDays: 30 }),
  invoices: settings({ cadenceMinutes: 1440, rereadDays: 90, windowSize: 7 }),
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

function settings(partial: Partial<StreamSettings> & { cadenceMinutes: number }): Readonly<StreamSettings> {
  return Object.freeze({ lookbackMinutes: 0, rereadDays: 0, windowSize: 1, minWindowSize: 1, ...partial });
}
