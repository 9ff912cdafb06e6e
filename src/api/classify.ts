import {
  NonRetryableUpstreamError,
  RetryableUpstreamError,
  scrubSecrets,
  UnauthorizedError,
  type UpstreamError,
  UpstreamTimeoutError,
} from './errors.ts';
import { envelopeSchema } from './records/envelope.ts';

/**
 * Pure failure classification of CONTRACT.md section 1 "Failures": given what came back, decide
 * success (with its envelope) or which typed error it is. No I/O, no clock of its own.
 */

/** What the transport saw of one HTTP answer. */
export interface RawAnswer {
  operation: string;
  status: number;
  /** The Retry-After header value, if any. */
  retryAfter: string | null;
  body: string;
  /** Epoch ms, for Retry-After given as an HTTP date. */
  now: number;
  /** Secret values to scrub from any text that ends up in a message. */
  secrets?: readonly (string | undefined)[];
}

export type Classified =
  | { ok: true; payload: unknown; message: string | null }
  | { ok: false; error: UpstreamError };

/** A message of an `isSuccess: false` answer that says the same call may work later. */
export const RETRYABLE_MESSAGE = /try again|retry|temporar/i;

/** Parses Retry-After (delta seconds or an HTTP date) into milliseconds from `now`; undefined if absent or bad. */
export function parseRetryAfter(value: string | null | undefined, now: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

/** True for HTTP statuses worth repeating: 408, 429 and every 5xx. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** Classifies one HTTP answer into its payload or a typed failure. */
export function classifyAnswer(answer: RawAnswer): Classified {
  const { operation, status } = answer;
  const parsed = parseJson(answer.body);
  const envelope = parsed.ok ? envelopeSchema.safeParse(parsed.value) : undefined;
  const rawMessage = envelope?.success ? (envelope.data.message ?? undefined) : undefined;
  const upstreamMessage = rawMessage === undefined ? undefined : scrubSecrets(rawMessage, answer.secrets);
  const said = upstreamMessage ? `: ${upstreamMessage}` : '';

  if (status < 200 || status > 299) {
    const details = { operation, status, upstreamMessage, kind: 'http-status' as const };
    if (status === 401) {
      return {
        ok: false,
        error: new UnauthorizedError(
          `${operation}: the service rejected the access token (HTTP 401)${said}; check FULFILLMENT_API_TOKEN or the client credentials`,
          details,
        ),
      };
    }
    if (isRetryableStatus(status)) {
      const retryAfterMs = parseRetryAfter(answer.retryAfter, answer.now);
      return {
        ok: false,
        error: new RetryableUpstreamError(`${operation}: HTTP ${status}${said}; will be retried`, {
          ...details,
          retryAfterMs,
        }),
      };
    }
    return {
      ok: false,
      error: new NonRetryableUpstreamError(
        `${operation}: HTTP ${status}${said}; the request itself must change`,
        details,
      ),
    };
  }

  if (!parsed.ok) {
    return {
      ok: false,
      error: new NonRetryableUpstreamError(`${operation}: HTTP ${status} answer is not JSON`, {
        operation,
        status,
        kind: 'invalid-body',
        cause: parsed.error,
      }),
    };
  }
  if (!envelope?.success) {
    return {
      ok: false,
      error: new NonRetryableUpstreamError(
        `${operation}: answer is not the {isSuccess, message, payload} envelope`,
        { operation, status, kind: 'invalid-body', cause: envelope?.error },
      ),
    };
  }
  if (!envelope.data.isSuccess) {
    const details = { operation, status, upstreamMessage, kind: 'envelope-failure' as const };
    if (upstreamMessage && RETRYABLE_MESSAGE.test(upstreamMessage)) {
      return {
        ok: false,
        error: new RetryableUpstreamError(
          `${operation}: service answered isSuccess=false${said}; will be retried`,
          details,
        ),
      };
    }
    return {
      ok: false,
      error: new NonRetryableUpstreamError(
        `${operation}: service answered isSuccess=false${said || ' without a message'}`,
        details,
      ),
    };
  }
  return { ok: true, payload: envelope.data.payload, message: envelope.data.message ?? null };
}

/** Classifies a fetch that threw: our timeout, someone's abort, or a network failure. */
export function classifyThrown(
  operation: string,
  error: unknown,
  timedOut: boolean,
  timeoutMs: number,
): UpstreamError {
  if (timedOut) {
    return new UpstreamTimeoutError(
      `${operation}: no complete answer within ${timeoutMs} ms; will be retried`,
      {
        operation,
        cause: error,
      },
    );
  }
  const reason = error instanceof Error ? describeNetworkError(error) : String(error);
  return new RetryableUpstreamError(`${operation}: network failure (${reason}); will be retried`, {
    operation,
    kind: 'network',
    cause: error,
  });
}

function describeNetworkError(error: Error): string {
  const cause = error.cause;
  if (cause instanceof Error) {
    const code = (cause as { code?: unknown }).code;
    return typeof code === 'string' ? `${code} ${cause.message}` : cause.message;
  }
  return error.message;
}

function parseJson(body: string): { ok: true; value: unknown } | { ok: false; error: unknown } {
  try {
    return { ok: true, value: JSON.parse(body) };
  } catch (error) {
    return { ok: false, error };
  }
}
