import type { RateLimits } from '../ratelimit/budgets.ts';
import { type RateLimiter, RateLimitPausedError } from '../ratelimit/limiter.ts';
import type { ApiAnswer, ApiRequest } from './apiCall.ts';
import { BodyTooLargeError, readBoundedText } from './boundedBody.ts';
import type { CallHooks, CallReport, RetrySettings } from './callHooks.ts';
import { classifyAnswer, classifyThrown } from './classify.ts';
import { AnswerTooLargeError, RetryableUpstreamError, type UpstreamError } from './errors.ts';
import { OPERATIONS, type OperationId } from './operations.ts';
import { budgetPauseMs } from './retryPolicy.ts';
import type { SettingNames } from './settingNames.ts';
import type { TokenProvider } from './tokenProvider.ts';

/** What an exchange works with: the transport's options, defaults filled in. */
export interface ExchangeSettings extends Pick<CallHooks, 'onCall' | 'logger'> {
  fetch: typeof fetch;
  tokenProvider: TokenProvider;
  rateLimits: RateLimits;
  timeoutMs: number;
  maxResponseBytes: number;
  settingNames: SettingNames;
  retry: RetrySettings;
  /** Epoch ms, for Retry-After dates. */
  now: () => number;
}

/** One attempt of a call: resolves to the answer or throws a typed UpstreamError. */
export type Exchange = (request: ApiRequest, url: string, attempt: number) => Promise<ApiAnswer>;

/**
 * One HTTP exchange: a slot of the operation's budget, the bearer token, the request under its
 * timeout, the body read within its size bound, the answer classified, and the attempt reported.
 */
export function createExchange(settings: ExchangeSettings): Exchange {
  const { tokenProvider, settingNames, timeoutMs } = settings;
  return async function exchange(request, url, attempt) {
    const { operation } = request;
    const limiter = settings.rateLimits(operation);
    await acquireSlot(limiter, operation);
    const token = await tokenProvider.getToken();
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
    const started = performance.now();
    let status: number | undefined;
    let error: UpstreamError | undefined;
    try {
      let body: string;
      let retryAfter: string | null;
      try {
        const response = await settings.fetch(url, {
          method: OPERATIONS[operation].method,
          headers,
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          signal,
        });
        status = response.status;
        retryAfter = response.headers.get('retry-after');
        body = await readBoundedText(response, settings.maxResponseBytes);
      } catch (thrown) {
        // The caller's own abort is not an upstream failure: let it end the call as it is.
        if (request.signal?.aborted) throw request.signal.reason;
        if (thrown instanceof BodyTooLargeError) {
          error = new AnswerTooLargeError(
            `${operation}: answer larger than ${settingNames.maxResponseBytes}=${thrown.maxBytes} bytes (decoded), abandoned; ask for a smaller range or raise ${settingNames.maxResponseBytes}`,
            { operation, status },
          );
          throw error;
        }
        error = classifyThrown(operation, thrown, timeout.aborted, timeoutMs);
        throw error;
      }
      const classified = classifyAnswer({
        operation,
        status,
        retryAfter,
        body,
        now: settings.now(),
        secrets: [token],
        settingNames,
      });
      if (!classified.ok) {
        error = classified.error;
        await pauseEveryCaller(limiter, budgetPauseMs(error, attempt, settings.retry));
        throw error;
      }
      return { payload: classified.payload, message: classified.message };
    } finally {
      report(settings, { operation, status, durationMs: performance.now() - started, attempt, error });
    }
  };
}

/** A slot of the operation's budget; a pause too long to wait here fails the call as retryable. */
async function acquireSlot(limiter: RateLimiter, operation: OperationId): Promise<void> {
  try {
    await limiter.acquire();
  } catch (thrown) {
    if (!(thrown instanceof RateLimitPausedError)) throw thrown;
    throw new RetryableUpstreamError(`${operation}: ${thrown.message}`, {
      operation,
      kind: 'paused',
      retryAfterMs: thrown.retryAfterMs,
    });
  }
}

/**
 * A 429 (or a throttling message) or a Retry-After pauses the whole budget (every process, with
 * the shared limiter) for that long; throttling without Retry-After for this attempt's backoff.
 * Best effort: a pause that cannot be recorded must not change the call's own failure.
 */
async function pauseEveryCaller(limiter: RateLimiter, pauseMs: number): Promise<void> {
  if (pauseMs > 0) await limiter.pause(pauseMs).catch(() => undefined);
}

function report(settings: Pick<ExchangeSettings, 'onCall' | 'logger'>, call: CallReport): void {
  settings.logger?.debug(
    {
      operation: call.operation,
      status: call.status,
      durationMs: Math.round(call.durationMs),
      attempt: call.attempt,
    },
    call.error ? `upstream call failed: ${call.error.message}` : 'upstream call',
  );
  try {
    settings.onCall?.(call);
  } catch {
    // A broken metrics hook must not fail the call it observes.
  }
}
