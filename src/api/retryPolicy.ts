import type { RetrySettings } from './callHooks.ts';
import { isRetryable, type UpstreamError, UpstreamTimeoutError } from './errors.ts';
import { OPERATIONS, type OperationId } from './operations.ts';

/**
 * Pure retry decisions of one call: whether another attempt may help and is safe, how long a
 * throttled answer pauses the shared budget, and what a retryable failure says when the call ends.
 */

/**
 * A call that timed out twice is not tried a third time: a window whose answer does not arrive in
 * time is split by the engine (fetchSplit.ts), which costs at most two timeouts per split level
 * instead of five, and a detail call is retried later with its backoff.
 */
const MAX_TIMEOUTS_PER_CALL = 2;
/** Statuses meaning the service refused a write before applying it, so repeating it is safe. */
const SAFE_WRITE_RETRY_STATUSES = new Set([408, 429, 503]);

/**
 * Whether `operation` is tried again after `error`: a retryable failure whose Retry-After is short
 * enough to wait out here, not a third timeout, and for a write only when it was never applied.
 */
export function worthRetrying(
  operation: OperationId,
  error: Error,
  context: { maxRetryAfterMs: number; timeouts: number },
): boolean {
  if (!isRetryable(error)) return false;
  if ((error.retryAfterMs ?? 0) > context.maxRetryAfterMs) return false;
  if (error instanceof UpstreamTimeoutError && context.timeouts >= MAX_TIMEOUTS_PER_CALL) return false;
  if (OPERATIONS[operation].idempotent) return true;
  // A failed token fetch means the write was never sent.
  if (error.operation !== operation) return true;
  return error.status !== undefined && SAFE_WRITE_RETRY_STATUSES.has(error.status);
}

/** The Retry-After a retryable failure carries, if it asked for a wait at all. */
export function retryAfterOf(error: unknown): number | undefined {
  const retryAfterMs = isRetryable(error) ? error.retryAfterMs : undefined;
  return retryAfterMs !== undefined && retryAfterMs > 0 ? retryAfterMs : undefined;
}

/**
 * How long a failed attempt pauses its whole budget: a Retry-After for as long as it says;
 * throttling without one (a 429 or a throttling message) for this attempt's backoff; else not at all.
 */
export function budgetPauseMs(error: UpstreamError, attempt: number, retry: RetrySettings): number {
  const retryAfterMs = retryAfterOf(error);
  if (retryAfterMs !== undefined) return retryAfterMs;
  if (error.kind === 'rate-limited')
    return Math.min(retry.minTimeoutMs * 2 ** (attempt - 1), retry.maxTimeoutMs);
  return 0;
}

/**
 * A retryable failure that reaches the caller says what happened: this call gave up after so many
 * attempts. Whether to try again later is the caller's to decide (`isRetryable` says it may help).
 */
export function saidGaveUp(error: unknown, attempts: number): unknown {
  if (!isRetryable(error) || attempts < 1) return error;
  const said = `${error.message}; gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
  if (error.stack) error.stack = error.stack.replace(error.message, said);
  error.message = said;
  return error;
}
