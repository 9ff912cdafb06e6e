import { parseRetryAfter } from '../http/retryAfter.ts';
import {
  AnswerTooLargeError,
  NonRetryableUpstreamError,
  RetryableUpstreamError,
  scrubSecrets,
  UnauthorizedError,
  type UpstreamError,
  UpstreamTimeoutError,
} from './errors.ts';
import { envelopeSchema } from './records/envelope.ts';
import { OPTION_SETTING_NAMES, type SettingNames } from './settingNames.ts';

/**
 * Pure failure classification (docs/upstream-api.md, section 7): given what came back, decide
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
  /** How messages name the settings to check (default: the client's options). */
  settingNames?: SettingNames;
}

export type Classified =
  | { ok: true; payload: unknown; message: string | null }
  | { ok: false; error: UpstreamError };

/*
 * Failure messages are read by words, not windows of characters: "rate limit" is not found inside
 * "moderate limit", "try again" not inside "Country again", and a negation bears on the retry only
 * when it governs it ("do not retry", "cannot be retried"), not when it is anywhere before it
 * ("Service not available please retry later" asks for a retry).
 */

/** A failure message saying the service is throttling us: wait and retry, never split. */
export const RATE_LIMIT_MESSAGE = /\btoo many requests\b|\brate[ -]?limit(?:s|ed|ing)?\b|\bthrottl\w*/i;

/**
 * A failure message asking for a smaller request. "too many" alone is not enough: "Too many
 * requests" is throttling, so only "too many" records, rows or results count.
 */
export const TOO_LARGE_MESSAGE =
  /\btoo (?:large|big)\b|\bnarrow (?:the |your )?(?:date |time )?range\b|\btoo many (?:records|rows|results|items|lines)\b/i;

/**
 * A failure message saying the service's own query or wait timed out (a .NET service behind SQL
 * Server: "Timeout expired. The timeout period elapsed prior to completion of the operation.",
 * "Execution Timeout Expired", "The operation has timed out", "The wait operation timed out",
 * "query timeout", Postgres' "statement timeout", SQL Server's "Lock request time out period
 * exceeded": timeout in one word, two or hyphenated). The call was too heavy: retried, then its
 * window split, like our own timeout. Phrases, not the word "time": "deliveryTime out of range",
 * "Ship time out of range", "timeoutSeconds" or "Runtime error" say nothing of the kind.
 */
export const TIMEOUT_MESSAGE =
  /\btimed out\b|\btime[- ]?out (?:expired|period elapsed|period exceeded|exceeded|occurred)\b|\b(?:query|command|execution|statement|sql|database|db|operation|request|wait|lock request) time[- ]?out\b/i;

/** ...unless a negation governs it: "has not timed out", "no timeout expired". */
const NEGATED_TIMEOUT =
  /\b(?:not|never|no|without|\w+n['’]t)\s+(?:(?:been|be|yet|a|the|any)\s+)*(?:timed out|\w*\s*time[- ]?out)\b/i;

/**
 * ...nor a session or token that timed out ("Your session has timed out", "Access token timed out"):
 * no query took too long, and a narrower window cannot help.
 */
const SESSION_TIMEOUT = /\b(?:session|token)s?\b[^.;:]*\b(?:timed out|time[- ]?out)\b/i;

/** True when a failure message reports that the service's own processing timed out. */
export function saysTimedOut(message: string): boolean {
  return TIMEOUT_MESSAGE.test(message) && !NEGATED_TIMEOUT.test(message) && !SESSION_TIMEOUT.test(message);
}

/** The words that say "may be retried": retry (retries, retried, retrying, retryable), try again. */
const RETRY_WORDS = String.raw`(?:retr(?:y|ies|ied|ying|yable)|try again)\b`;

/** A failure message saying the same call may work later. */
export const RETRYABLE_MESSAGE = new RegExp(String.raw`\b${RETRY_WORDS}|\btemporar(?:y|ily)\b`, 'i');

/**
 * ...unless a negation governs the retry word: "not", "never", "no", "cannot" or an "n't" word, then
 * at most the words "be", "been", "to", "ever" ("do not retry", "don't retry", "cannot be retried",
 * "not retryable", "no retries", "should not be retried").
 */
const NEGATED_RETRY = new RegExp(
  String.raw`\b(?:not|never|cannot|no|\w+n['’]t)\s+(?:(?:be|been|to|ever)\s+)*${RETRY_WORDS}`,
  'i',
);

/** True when a failure message says the same call may succeed later (and does not say the opposite). */
export function saysRetryable(message: string): boolean {
  return RETRYABLE_MESSAGE.test(message) && !NEGATED_RETRY.test(message);
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
  const failure = {
    operation,
    status,
    upstreamMessage,
    answer,
    settingNames: answer.settingNames ?? OPTION_SETTING_NAMES,
  };

  if (status < 200 || status > 299)
    return { ok: false, error: failureOf({ ...failure, said: `HTTP ${status}` }) };
  if (!envelope?.success) {
    // A proxy's error page or a cut-off body under a 200: the service did not really answer, so
    // asking again is what helps (like a 5xx), not giving up on the window.
    const what = parsed.ok ? 'is not the {isSuccess, message, payload} envelope' : 'is not JSON';
    return {
      ok: false,
      error: new RetryableUpstreamError(`${operation}: HTTP ${status} answer ${what}`, {
        operation,
        status,
        kind: 'invalid-body',
        cause: parsed.ok ? envelope?.error : parsed.error,
      }),
    };
  }
  if (!envelope.data.isSuccess) {
    return { ok: false, error: failureOf({ ...failure, said: 'service answered isSuccess=false' }) };
  }
  return { ok: true, payload: envelope.data.payload, message: envelope.data.message ?? null };
}

/** What a failed answer said: its status, the envelope's message, and how to name it. */
interface FailureFacts {
  operation: string;
  status: number;
  upstreamMessage: string | undefined;
  answer: RawAnswer;
  /** `HTTP 503` or `service answered isSuccess=false`. */
  said: string;
  settingNames: SettingNames;
}

/**
 * The typed error of a non-2xx answer or an `isSuccess: false` envelope. Order matters: throttling
 * before "too large" (a 429 or "Too many requests" must wait, never split), and an explicit
 * "narrow the range" before a retry hint.
 */
function failureOf(facts: FailureFacts): UpstreamError {
  const { operation, status, upstreamMessage } = facts;
  const text = upstreamMessage ?? '';
  const headline = `${operation}: ${facts.said}${upstreamMessage ? `: ${upstreamMessage}` : ''}`;
  const envelopeFailure = status >= 200 && status <= 299;
  const details = {
    operation,
    status,
    upstreamMessage,
    kind: envelopeFailure ? ('envelope-failure' as const) : ('http-status' as const),
  };
  const retryAfterMs = () => parseRetryAfter(facts.answer.retryAfter, facts.answer.now);

  if (status === 401) {
    return new UnauthorizedError(
      `${headline}; the service rejected the access token, check ${facts.settingNames.credentials}`,
      details,
    );
  }
  if (status === 413)
    return new AnswerTooLargeError(`${headline}; the answer is too large for one call`, details);
  if (status === 429 || RATE_LIMIT_MESSAGE.test(text)) {
    return new RetryableUpstreamError(`${headline}; rate limited`, {
      ...details,
      kind: 'rate-limited',
      retryAfterMs: retryAfterMs(),
    });
  }
  if (saysTimedOut(text)) {
    return new UpstreamTimeoutError(`${headline}; the upstream's own query timed out, will be retried`, {
      operation,
      status,
      upstreamMessage,
    });
  }
  if (!envelopeFailure && isRetryableStatus(status)) {
    return new RetryableUpstreamError(headline, {
      ...details,
      retryAfterMs: retryAfterMs(),
    });
  }
  if (TOO_LARGE_MESSAGE.test(text)) {
    return new AnswerTooLargeError(`${headline}; the answer is too large for one call`, details);
  }
  if (envelopeFailure && saysRetryable(text)) return new RetryableUpstreamError(headline, details);
  if (envelopeFailure)
    return new NonRetryableUpstreamError(
      upstreamMessage ? headline : `${headline} without a message`,
      details,
    );
  return new NonRetryableUpstreamError(`${headline}; the request itself must change`, details);
}

/** Classifies a fetch that threw: our timeout, someone's abort, or a network failure. */
export function classifyThrown(
  operation: string,
  error: unknown,
  timedOut: boolean,
  timeoutMs: number,
): UpstreamError {
  if (timedOut) {
    return new UpstreamTimeoutError(`${operation}: no complete answer within ${timeoutMs} ms`, {
      operation,
      cause: error,
    });
  }
  const reason = error instanceof Error ? describeNetworkError(error) : String(error);
  return new RetryableUpstreamError(`${operation}: network failure (${reason})`, {
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
