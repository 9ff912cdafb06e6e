/**
 * A window is prepared while the previous one commits (windowPipeline.ts), in the same thread. A
 * synchronous loop over a whole window's records (tens of milliseconds) would keep that commit's
 * COPY from being fed and its round trips from being answered, and Postgres would sit waiting on
 * this process. Preparation therefore works in slices of records and lets pending I/O run between
 * them. Measured with 100,000 shipment updates in windows of 5,000 (bench/phases.ts' write stage,
 * against COPY in the same run): no slices 0.82x COPY, slices of 1,000 0.85x, 500 0.88x, 200 0.93x,
 * 50 0.96x.
 */

/** Records handled between two turns of the event loop: well under a millisecond of work. */
export const SLICE_RECORDS = 50;

/** Lets pending I/O callbacks run (setImmediate runs after the poll phase, unlike a microtask). */
export function yieldToIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
