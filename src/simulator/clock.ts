/** The simulator's notion of now: driven by tests (manual) or following real time. */
export interface SimClock {
  readonly mode: 'manual' | 'real';
  /** Current simulated time, ms since the epoch. */
  now(): number;
  /** Moves a manual clock forward; a real clock refuses. */
  advance(minutes: number): void;
}

/** A clock that only moves when told to. */
export function manualClock(start: number): SimClock {
  let now = start;
  return {
    mode: 'manual',
    now: () => now,
    advance(minutes: number) {
      if (!Number.isFinite(minutes) || minutes < 0) {
        throw new Error('advanceMinutes must be a non-negative number');
      }
      now += Math.round(minutes * 60_000);
    },
  };
}

/** A clock that reads `start` at creation and then follows real time. */
export function realClock(start: number, realNow: () => number = Date.now): SimClock {
  const origin = realNow();
  return {
    mode: 'real',
    now: () => start + (realNow() - origin),
    advance() {
      throw new Error('the simulator clock is real; start it with --clock manual to advance it');
    },
  };
}
