import type { UpstreamError } from './errors.ts';
import type { OperationId } from './operations.ts';

/** The subset of a pino logger the client uses; secrets are never passed to it. */
export interface ClientLogger {
  debug(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
}

/** One HTTP attempt, reported to `onCall` for metrics. */
export interface CallReport {
  operation: OperationId;
  status: number | undefined;
  durationMs: number;
  attempt: number;
  error?: UpstreamError;
}

/** How a failed attempt is tried again: p-retry's exponential backoff, and how long a Retry-After may be. */
export interface RetrySettings {
  /** Retries after the first attempt (default 4). */
  retries: number;
  /** First backoff delay (default 500 ms); doubles per retry, randomised (jitter). */
  minTimeoutMs: number;
  /** Backoff ceiling (default 30 s). */
  maxTimeoutMs: number;
  /**
   * A Retry-After longer than this is not waited out in-process: the call fails at once with a
   * RetryableUpstreamError carrying `retryAfterMs`, so the job queue can delay it (default 60 s).
   */
  maxRetryAfterMs?: number;
}

/** How calls are retried, reported, logged and timed: the seams the client passes to its transport. */
export interface CallHooks {
  retry?: Partial<RetrySettings>;
  onCall?: (report: CallReport) => void;
  logger?: ClientLogger;
  /** Epoch ms, for Retry-After dates. */
  now?: () => number;
  /** Used for Retry-After waits; injected so tests need not wait. */
  sleep?: (ms: number) => Promise<void>;
}

/** The retry settings of a client not given its own; the worker's longest in-process wait derives from them. */
export const DEFAULT_RETRY: RetrySettings = {
  retries: 4,
  minTimeoutMs: 500,
  maxTimeoutMs: 30_000,
  maxRetryAfterMs: 60_000,
};
