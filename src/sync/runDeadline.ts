/**
 * A run's deadline: past it, a run fetches no further window. What it stored stays stored and its
 * cursor where the last stored window left it; the next run resumes there. Without it one scope
 * whose upstream answers slowly would hold every other stream of a `sync --once` (and a worker's
 * slot) for as long as its windows keep splitting.
 */
export class RunDeadlineError extends Error {
  override name = 'RunDeadlineError';
}

/** Monotonic milliseconds (not the run's `now`, which may be a simulated clock). */
const monotonicMs = () => performance.now();

/** A check that throws RunDeadlineError once `budgetMs` has passed since it was made; 0: never. */
export function startRunDeadline(budgetMs: number, clock: () => number = monotonicMs): () => void {
  if (budgetMs <= 0) return () => {};
  const endsAt = clock() + budgetMs;
  return () => {
    if (clock() < endsAt) return;
    throw new RunDeadlineError(
      `the run's deadline of ${budgetMs} ms (FULFILLMENT_RUN_DEADLINE_MS) passed; what was stored is kept and the next run resumes from the cursor`,
    );
  };
}
