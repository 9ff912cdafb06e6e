import { DEFAULT_RETRY } from '../api/callHooks.ts';
import { RequestRuleError, RetryableUpstreamError, UnauthorizedError, UpstreamError } from '../api/errors.ts';
import type { RejectedRecord } from '../sync/types.ts';

const MAX_IN_PROCESS_WAIT_MS = DEFAULT_RETRY.maxRetryAfterMs ?? 60_000;

/** One detail call's outcome as the engine's detail queue takes it. */
export type DetailOutcome<R> = { record: R; repaired: RejectedRecord[] } | { failure: string };

/**
 * Runs one detail call and turns what can go wrong with that one record into a failure reason
 * (not found, rejected by its schema, failing after the client's retries), so it is retried later
 * with backoff instead of failing its window. What concerns every call alike is thrown: refused
 * credentials, and a Retry-After longer than the client waits in-process (the queue pauses).
 * `toRecord` makes the detail the stream's record.
 */
export async function detailOutcome<T, R>(
  call: () => Promise<{
    record: T | null;
    rejected: readonly RejectedRecord[];
    repaired?: readonly RejectedRecord[];
  }>,
  toRecord: (detail: T) => R,
): Promise<DetailOutcome<R>> {
  try {
    const answer = await call();
    if (answer.record !== null)
      return { record: toRecord(answer.record), repaired: [...(answer.repaired ?? [])] };
    const invalid = answer.rejected[0];
    return {
      failure: invalid
        ? `detail rejected by its schema: ${invalid.reason}`
        : 'detail not found (empty payload)',
    };
  } catch (error) {
    if (error instanceof UnauthorizedError) throw error;
    // A wait longer than the client sits out in-process concerns every call: the queue pauses.
    if (error instanceof RetryableUpstreamError && (error.retryAfterMs ?? 0) > MAX_IN_PROCESS_WAIT_MS)
      throw error;
    if (error instanceof UpstreamError || error instanceof RequestRuleError)
      return { failure: error.message };
    throw error;
  }
}
