import { daysBetween } from '../time/days.ts';
import { formatWireDay } from '../time/format.ts';
import type { PlanInput, Window } from './types.ts';

/**
 * Adaptive window sizes, pure. A stream reads with the largest window it allows (its configured
 * `windowSize`); a run whose answers were too large is split in halves (fetchSplit.ts) and the
 * size that worked is remembered per stream and scope (`sync.cursors.position.windowSize`); while
 * answers stay well under the row cap the remembered size doubles back towards the maximum.
 */

/** An answer of at most this share of the row cap counts as "well under" it: the size may grow. */
export const GROW_BELOW_SHARE = 0.25;

/** The window size a run plans with: the remembered one, never above the configured maximum. */
export function plannedWindowSize(input: Pick<PlanInput, 'cursor' | 'settings'>): number {
  const max = input.settings.windowSize;
  const remembered = input.cursor.windowSize;
  return remembered === undefined ? max : Math.max(input.settings.minWindowSize, Math.min(remembered, max));
}

/** The size of a time window in its own unit: minutes for minute windows, days for day windows. */
export function windowSizeOf(window: Window, timezone: string): number | undefined {
  if (window.kind === 'minute') return Math.round((window.end.getTime() - window.start.getTime()) / 60_000);
  if (window.kind === 'day')
    return daysBetween(formatWireDay(window.start, timezone), formatWireDay(window.end, timezone)) + 1;
  return undefined;
}

/** One stored time window of a run, as the size decision needs it. */
export interface ReadWindow {
  size: number;
  /** Rows its answer held (records and rejected). */
  rows: number;
  /** How many halvings it took (0: the planned window). */
  depth: number;
}

/** A new remembered size, and why; undefined: keep what there is. */
export interface SizeDecision {
  size: number;
  reason: string;
}

/**
 * What a run's time windows say about the next run's size: after a split, the largest size that
 * fit (the smallest window that was read after splitting, so the next run need not split again);
 * with every answer well under the cap, double (up to `max`).
 */
export function nextWindowSize(args: {
  planned: number;
  max: number;
  maxRows: number;
  windows: readonly ReadWindow[];
}): SizeDecision | undefined {
  const { planned, max, maxRows, windows } = args;
  if (windows.length === 0) return undefined;
  const split = windows.filter((w) => w.depth > 0);
  if (split.length > 0) {
    const size = Math.max(1, Math.min(...split.map((w) => w.size)));
    return size === planned
      ? undefined
      : { size, reason: `answers over the row cap: ${planned} split to ${size}` };
  }
  // Small answers from windows smaller than planned (an incremental run reads little) still say
  // the data is sparse; growing too far costs one split, which shrinks it again.
  const small = windows.every((w) => w.rows < maxRows * GROW_BELOW_SHARE);
  if (planned < max && small) {
    const size = Math.min(max, planned * 2);
    return { size, reason: `answers well under the row cap: ${planned} grows to ${size}` };
  }
  return undefined;
}
