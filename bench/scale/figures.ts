/** Pure arithmetic of the scale benchmark: which streams cycle when, and what fits in 10 requests/s. */

import type { StreamName } from '../../src/config/types.ts';
import { JITTER_ALLOWANCE_MS } from '../../src/ratelimit/sendWindow.ts';
import { phaseOffsetMs } from '../../src/worker/schedulePhase.ts';
import { scheduleId } from '../../src/worker/schedules.ts';

const DAY_MS = 86_400_000;

/** Streams that share a cadence are cycled after the world has moved by that cadence. */
export interface CyclePhase {
  cadenceMinutes: number;
  streams: string[];
}

/** Scheduled streams grouped by cadence, shortest first (streams with cadence 0 run on demand). */
export function cyclePhases(cadences: Readonly<Record<string, { cadenceMinutes: number }>>): CyclePhase[] {
  const byCadence = new Map<number, string[]>();
  for (const [stream, { cadenceMinutes }] of Object.entries(cadences)) {
    if (!(cadenceMinutes > 0)) continue;
    byCadence.set(cadenceMinutes, [...(byCadence.get(cadenceMinutes) ?? []), stream]);
  }
  return [...byCadence.entries()]
    .sort(([a], [b]) => a - b)
    .map(([cadenceMinutes, streams]) => ({ cadenceMinutes, streams }));
}

/**
 * Requests per second the shared limiter lets through when configured for `rps`: at most rps in any
 * (1000 + JITTER_ALLOWANCE_MS) ms, so 10 configured is 9.52 sent.
 */
export function sentRps(configuredRps: number): number {
  return (1000 * configuredRps) / (1000 + JITTER_ALLOWANCE_MS);
}

/** The configured rate at which `calls` are sent within `seconds` (the inverse of sentRps). */
export function configuredRpsFor(calls: number, seconds: number): number {
  return Math.ceil(((calls / seconds) * (1000 + JITTER_ALLOWANCE_MS)) / 10) / 100;
}

/** Whether one stream's cycle fits its cadence at `rps`, and the rate it needs where it does not. */
export interface Fit {
  stream: string;
  cadenceMinutes: number;
  calls: number;
  /** Measured: the cycle's wall time at `rps`, all three workers sharing it. */
  cycleSeconds: number;
  fits: boolean;
  /** Share of the cadence the cycle takes (1 = the whole cadence). */
  cadenceShare: number;
  /** The configured FULFILLMENT_RATE_LIMIT_RPS whose pace sends the cycle's calls within the cadence. */
  neededRps: number;
}

export function cadenceFit(stream: string, cadenceMinutes: number, calls: number, cycleSeconds: number): Fit {
  const cadenceSeconds = cadenceMinutes * 60;
  return {
    stream,
    cadenceMinutes,
    calls,
    cycleSeconds,
    fits: cycleSeconds <= cadenceSeconds,
    cadenceShare: round(cycleSeconds / cadenceSeconds, 4),
    neededRps: configuredRpsFor(calls, cadenceSeconds),
  };
}

/** Seconds `calls` take at a configured rate (the limiter's spacing; ignores everything else). */
export function secondsAt(calls: number, configuredRps: number): number {
  return round(calls / sentRps(configuredRps), 1);
}

export function round(n: number, digits = 3): number {
  const f = 10 ** digits;
  return Math.round(n * f) / f;
}

/** One stream's measured cycle, as the burst arithmetic needs it. */
export interface CycleCalls {
  cadenceMinutes: number;
  calls: number;
  /** Order details its changes named (counted apart, but drawn from the same budget). */
  orderDetailCalls?: number;
}

/**
 * The calls that come due at one moment if every cadence's cycle started together, and how long
 * they take at `configuredRps` against the shortest cadence. So it was while every scheduler took
 * its phase from its registration instant (the cadences, 5, 15, 60 and 1440 minutes, then
 * coincided once a day); `busiestWindow` is the figure with each scheduler at its own phase.
 */
export function burstWhenAllDue(cycles: readonly CycleCalls[], configuredRps: number) {
  const calls = cycles.reduce((n, c) => n + c.calls + (c.orderDetailCalls ?? 0), 0);
  const seconds = secondsAt(calls, configuredRps);
  const shortestCadenceSeconds = Math.min(...cycles.map((c) => c.cadenceMinutes * 60));
  return {
    calls,
    seconds,
    shortestCadenceSeconds,
    overrunsShortestCadence: seconds > shortestCadenceSeconds,
  };
}

/** One stream's measured cycle and the scopes its schedulers run for. */
export interface ScheduledCycle extends CycleCalls {
  stream: StreamName;
  scopes: readonly string[];
}

/**
 * The most calls that come due within any window of the shortest cadence over a day, with each
 * scheduler at its phase (src/worker/schedulePhase.ts) bringing its scope's share of its stream's
 * cycle, and how long they take at `configuredRps`.
 */
export function busiestWindow(cycles: readonly ScheduledCycle[], configuredRps: number) {
  const windowMs = Math.min(...cycles.map((c) => c.cadenceMinutes)) * 60_000;
  const due: Array<{ at: number; calls: number }> = [];
  for (const c of cycles) {
    const every = c.cadenceMinutes * 60_000;
    const perScope = (c.calls + (c.orderDetailCalls ?? 0)) / Math.max(1, c.scopes.length);
    for (const scope of c.scopes) {
      for (let at = phaseOffsetMs(scheduleId(c.stream, scope), every); at < DAY_MS; at += every)
        due.push({ at, calls: perScope });
    }
  }
  due.sort((a, b) => a.at - b.at);
  // The day repeats: a window that starts late in it runs on into the next one.
  const ring = due.concat(due.map((d) => ({ at: d.at + DAY_MS, calls: d.calls })));
  let busiest = 0;
  let inWindow = 0;
  let first = 0;
  for (const d of ring) {
    inWindow += d.calls;
    while (d.at - (ring[first] as { at: number }).at >= windowMs)
      inWindow -= (ring[first++] as { calls: number }).calls;
    busiest = Math.max(busiest, inWindow);
  }
  const calls = Math.round(busiest);
  const seconds = secondsAt(calls, configuredRps);
  return { calls, seconds, windowSeconds: windowMs / 1000, overrunsWindow: seconds > windowMs / 1000 };
}
