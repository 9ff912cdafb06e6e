import type { StreamName } from '../config/types.ts';
import { addDays, dayOf, daysBetween, startOfDay } from '../sync/plan.ts';
import type { Window } from '../sync/types.ts';
import type { TimeWindow } from '../worker/seams.ts';

/** Streams read by time windows, hence backfillable; the others are snapshots or on-demand. */
export const BACKFILL_STREAMS = [
  'shipments',
  'returns',
  'inventory_activity',
  'transfers_in',
  'transfers_out',
  'invoices',
] as const satisfies readonly StreamName[];
export type BackfillStream = (typeof BACKFILL_STREAMS)[number];

/** Bad backfill input: one line saying what to fix (the CLI exits 2). */
export class BackfillInputError extends Error {
  override name = 'BackfillInputError';
}

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a stream can be backfilled. */
export function isBackfillStream(stream: string): stream is BackfillStream {
  return (BACKFILL_STREAMS as readonly string[]).includes(stream);
}

/**
 * Pure: splits the wall-clock days `fromDay`..`toDay` (inclusive) into windows of `windowDays` days,
 * each the half-open instant range [start of its first day, start of the day after its last).
 */
export function planBackfillWindows(args: {
  fromDay: string;
  toDay: string;
  windowDays: number;
  timezone: string;
}): TimeWindow[] {
  const { fromDay, toDay, timezone } = args;
  for (const [name, day] of [
    ['--from', fromDay],
    ['--to', toDay],
  ] as const) {
    if (!DAY_PATTERN.test(day) || Number.isNaN(Date.parse(`${day}T00:00:00Z`)) || addDays(day, 0) !== day) {
      throw new BackfillInputError(`${name} must be a day as yyyy-MM-dd, got "${day}".`);
    }
  }
  if (daysBetween(fromDay, toDay) < 0)
    throw new BackfillInputError(`--from ${fromDay} is after --to ${toDay}.`);
  const size = Math.max(1, Math.floor(args.windowDays));
  const windows: TimeWindow[] = [];
  for (let day = fromDay; daysBetween(day, toDay) >= 0; day = addDays(day, size)) {
    const next =
      daysBetween(addDays(day, size), addDays(toDay, 1)) >= 0 ? addDays(day, size) : addDays(toDay, 1);
    windows.push({ from: startOfDay(day, timezone), to: startOfDay(next, timezone) });
  }
  return windows;
}

/**
 * The engine window for one backfill window: day streams get the inclusive day range, shipments a
 * minute range; never `advanceTo`, so a backfill leaves the incremental cursor where it was.
 */
export function backfillEngineWindow(stream: StreamName, window: TimeWindow, timezone: string): Window {
  if (stream === 'shipments') {
    return { kind: 'minute', start: window.from, end: new Date(window.to.getTime() - 60_000) };
  }
  // Inclusive day bounds: the last day is the one before `to`.
  const lastDay = addDays(dayOf(window.to, timezone), -1);
  return { kind: 'day', start: window.from, end: startOfDay(lastDay, timezone) };
}
