/**
 * How busy the pruner may keep its connection: after each batch it rests at least this many times as
 * long as the batch took, so it works at most 1/(1 + REST_PER_BUSY) of the time (10%) whatever a
 * batch costs on the machine. A fixed pause alone did not bound that: at 100 pairs under load a
 * 1,000-row batch took 80-200 ms against the 100 ms pause, the pruner was busy over half the time,
 * and sync window commits beside it were 1.31x slower at p95 (bench:growth, day 126); resting 9x,
 * 0.98x where the old pace was 1.11-1.13x in the same run (README, Growth over a year).
 */
export const REST_PER_BUSY = 9;

/**
 * Milliseconds to rest after a batch that took `batchMs`: the configured pause, or longer where the
 * batch was slow. A pause of 0 is full speed (a prune by hand where a busy hour can be spared).
 */
export function restAfterBatch(batchMs: number, pauseMs: number, restPerBusy = REST_PER_BUSY): number {
  if (pauseMs <= 0) return 0;
  return Math.max(pauseMs, Math.ceil(batchMs * restPerBusy));
}
