import { redactBearerCredentials } from '../log/scrub.ts';

/**
 * Failures of the upstream client. Retry intent is a type: callers (the transport's own retry loop,
 * the job queue) ask `isRetryable(error)` instead of re-reading status codes. Messages never carry
 * tokens or client secrets: the transport scrubs them before an error is built.
 */

/** What went wrong, for metrics and for the engine's adaptive windowing ('too-large' and timeouts split). */
export type UpstreamFailureKind =
  | 'network'
  | 'timeout'
  | 'rate-limited'
  | 'too-large'
  | 'http-status'
  | 'invalid-body'
  | 'envelope-failure'
  | 'invalid-payload'
  | 'unauthorized'
  | 'token'
  /** Not sent: the shared budget is paused (a Retry-After seen by any process) for longer than a call waits. */
  | 'paused';

export interface UpstreamErrorDetails {
  operation: string;
  kind: UpstreamFailureKind;
  status?: number | undefined;
  /** The envelope's `message`, scrubbed and truncated, when the service sent one. */
  upstreamMessage?: string | undefined;
  cause?: unknown;
}

/** Any failed call to the fulfillment API. */
export class UpstreamError extends Error {
  readonly operation: string;
  readonly kind: UpstreamFailureKind;
  readonly status: number | undefined;
  readonly upstreamMessage: string | undefined;

  constructor(message: string, details: UpstreamErrorDetails) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'UpstreamError';
    this.operation = details.operation;
    this.kind = details.kind;
    this.status = details.status;
    this.upstreamMessage = details.upstreamMessage;
  }
}

/**
 * A failure that may succeed later: network, timeout, 408, 429 and throttling messages, 5xx, a 200
 * whose body is not an envelope, "try again" messages.
 */
export class RetryableUpstreamError extends UpstreamError {
  /** How long the service asked us to wait (Retry-After), if it said so. */
  readonly retryAfterMs: number | undefined;

  constructor(message: string, details: UpstreamErrorDetails & { retryAfterMs?: number | undefined }) {
    super(message, details);
    this.name = 'RetryableUpstreamError';
    this.retryAfterMs = details.retryAfterMs;
  }
}

/** A per-request timeout: retryable, and a hint to the worker that the window may be too large. */
export class UpstreamTimeoutError extends RetryableUpstreamError {
  constructor(message: string, details: Omit<UpstreamErrorDetails, 'kind'>) {
    super(message, { ...details, kind: 'timeout' });
    this.name = 'UpstreamTimeoutError';
  }
}

/** A failure that repeating the same request will not fix (4xx, `isSuccess: false`, bad payload). */
export class NonRetryableUpstreamError extends UpstreamError {
  constructor(message: string, details: UpstreamErrorDetails) {
    super(message, details);
    this.name = 'NonRetryableUpstreamError';
  }
}

/**
 * The answer is too large for one call: HTTP 413, a message asking to narrow the range, or our own
 * row cap (an answer of `maxRowsPerCall` rows may have been cut there). Repeating the same call
 * cannot help; asking for a smaller range can, so the engine splits the window on it.
 */
export class AnswerTooLargeError extends NonRetryableUpstreamError {
  /**
   * The rows of an answer that reached the row cap (none for a 413 or an oversized body): not a
   * complete answer, but what it names (codes, SKUs) tells how to divide the call.
   */
  declare readonly cutRows: readonly unknown[];

  constructor(
    message: string,
    details: Omit<UpstreamErrorDetails, 'kind'>,
    cutRows: readonly unknown[] = [],
  ) {
    super(message, { ...details, kind: 'too-large' });
    this.name = 'AnswerTooLargeError';
    // Not enumerable: an error serialised into a log line must not carry the records (personal
    // data, megabytes) along with it.
    Object.defineProperty(this, 'cutRows', { value: cutRows, enumerable: false });
  }
}

/** The service rejected our credentials even after one token refresh. */
export class UnauthorizedError extends NonRetryableUpstreamError {
  constructor(message: string, details: Omit<UpstreamErrorDetails, 'kind'>) {
    super(message, { ...details, kind: 'unauthorized' });
    this.name = 'UnauthorizedError';
  }
}

/** A request that breaks a rule of spec sections 7.4 or 8; raised before any network call. */
export class RequestRuleError extends Error {
  readonly operation: string;
  readonly problems: readonly string[];

  constructor(operation: string, problems: readonly string[], options?: { cause?: unknown }) {
    super(
      `${operation}: request breaks the API rules, fix it before calling: ${problems.join('; ')}`,
      options,
    );
    this.name = 'RequestRuleError';
    this.operation = operation;
    this.problems = problems;
  }
}

/** True when the failure may go away by repeating the same call later. */
export function isRetryable(error: unknown): error is RetryableUpstreamError {
  return error instanceof RetryableUpstreamError;
}

const MAX_UPSTREAM_MESSAGE = 300;

/**
 * Removes secrets from text that may reach an error message or a log: known secret values anywhere,
 * bearer tokens, and passwords inside URLs.
 */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[] = []): string {
  let out = text;
  for (const secret of secrets) {
    // Very short values would redact ordinary words; real tokens and secrets are long.
    if (secret && secret.length >= 4) out = out.split(secret).join('[redacted]');
  }
  out = redactBearerCredentials(out, '[redacted]');
  out = out.replace(/(\/\/[^/\s:@]+:)[^@\s/]+@/g, '$1[redacted]@');
  out = out.replace(
    /((?:access_token|client_secret|token)["']?\s*[:=]\s*["']?)[^"'&\s,}]+/gi,
    '$1[redacted]',
  );
  return out.length > MAX_UPSTREAM_MESSAGE ? `${out.slice(0, MAX_UPSTREAM_MESSAGE)}…` : out;
}

/**
 * How long upstream asked us to wait, read from an error or its `cause` chain (duck-typed, so the
 * errors that wrap a client failure, e.g. a failed run, carry it too). Undefined when none says.
 */
export function retryAfterMsOf(error: unknown, depth = 0): number | undefined {
  if (typeof error !== 'object' || error === null || depth > 3) return undefined;
  const record = error as { retryAfterMs?: unknown; cause?: unknown };
  if (typeof record.retryAfterMs === 'number' && record.retryAfterMs > 0) return record.retryAfterMs;
  return retryAfterMsOf(record.cause, depth + 1);
}
