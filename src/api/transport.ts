import pRetry from 'p-retry';
import type { RateLimits } from '../ratelimit/budgets.ts';
import { NO_RATE_LIMIT, type RateLimiter, RateLimitPausedError } from '../ratelimit/limiter.ts';
import { type ApiAnswer, type ApiRequest, checkBaseUrl, requestUrl } from './apiCall.ts';
import { BodyTooLargeError, DEFAULT_MAX_RESPONSE_BYTES, readBoundedText } from './boundedBody.ts';
import { type CallHooks, type CallReport, DEFAULT_RETRY } from './callHooks.ts';
import { classifyAnswer, classifyThrown } from './classify.ts';
import {
  AnswerTooLargeError,
  RetryableUpstreamError,
  UnauthorizedError,
  type UpstreamError,
  UpstreamTimeoutError,
} from './errors.ts';
import { OPERATIONS, type OperationId } from './operations.ts';
import { budgetPauseMs, retryAfterOf, saidGaveUp, worthRetrying } from './retryPolicy.ts';
import { OPTION_SETTING_NAMES, type SettingNames } from './settingNames.ts';
import type { TokenProvider } from './tokenProvider.ts';

export interface TransportOptions extends CallHooks {
  baseUrl: string;
  tokenProvider: TokenProvider;
  fetch?: typeof fetch;
  timeoutMs: number;
  /**
   * FULFILLMENT_MAX_RESPONSE_BYTES: an answer whose decoded body grows past this is abandoned as
   * too large (AnswerTooLargeError, so the engine splits the window). Default 32 MiB.
   */
  maxResponseBytes?: number;
  /** The budget each operation draws from (default: none); see src/ratelimit/budgets.ts. */
  rateLimits?: RateLimits;
  /** How messages name the settings to check (default: the client's options). */
  settingNames?: SettingNames;
}

export type Transport = (request: ApiRequest) => Promise<ApiAnswer>;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Builds the transport: URL, headers, timeout, envelope classification, retries with backoff and
 * Retry-After, a client-side rate limit, and the 401 path (refresh the token once, then fail).
 */
export function createTransport(options: TransportOptions): Transport {
  const doFetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? defaultSleep;
  const limitsOf = options.rateLimits ?? (() => NO_RATE_LIMIT);
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const maxRetryAfterMs = retry.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs ?? 60_000;
  const settingNames = options.settingNames ?? OPTION_SETTING_NAMES;
  const baseUrl = checkBaseUrl(options.baseUrl, settingNames);
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  const { tokenProvider, logger } = options;

  /** One HTTP exchange; resolves to the answer or throws a typed UpstreamError. */
  async function exchange(request: ApiRequest, url: string, attempt: number): Promise<ApiAnswer> {
    const { operation } = request;
    const limiter = limitsOf(operation);
    await acquireSlot(limiter, operation);
    const token = await tokenProvider.getToken();
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, Accept: 'application/json' };
    if (request.body !== undefined) headers['Content-Type'] = 'application/json';
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const signal = request.signal ? AbortSignal.any([timeout, request.signal]) : timeout;
    const started = performance.now();
    let status: number | undefined;
    let error: UpstreamError | undefined;
    try {
      let body: string;
      let retryAfter: string | null;
      try {
        const response = await doFetch(url, {
          method: OPERATIONS[operation].method,
          headers,
          body: request.body === undefined ? undefined : JSON.stringify(request.body),
          signal,
        });
        status = response.status;
        retryAfter = response.headers.get('retry-after');
        body = await readBoundedText(response, maxResponseBytes);
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
        error = classifyThrown(operation, thrown, timeout.aborted, options.timeoutMs);
        throw error;
      }
      const classified = classifyAnswer({
        operation,
        status,
        retryAfter,
        body,
        now: now(),
        secrets: [token],
        settingNames,
      });
      if (!classified.ok) {
        error = classified.error;
        await pauseEveryCaller(limiter, error, attempt);
        throw error;
      }
      return { payload: classified.payload, message: classified.message };
    } finally {
      report({ operation, status, durationMs: performance.now() - started, attempt, error });
    }
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
  async function pauseEveryCaller(
    limiter: RateLimiter,
    error: UpstreamError,
    attempt: number,
  ): Promise<void> {
    const pauseMs = budgetPauseMs(error, attempt, retry);
    if (pauseMs > 0) await limiter.pause(pauseMs).catch(() => undefined);
  }

  function report(call: CallReport): void {
    logger?.debug(
      {
        operation: call.operation,
        status: call.status,
        durationMs: Math.round(call.durationMs),
        attempt: call.attempt,
      },
      call.error ? `upstream call failed: ${call.error.message}` : 'upstream call',
    );
    try {
      options.onCall?.(call);
    } catch {
      // A broken metrics hook must not fail the call it observes.
    }
  }

  return async function send(request: ApiRequest): Promise<ApiAnswer> {
    const url = requestUrl(baseUrl, request);
    let refreshed = false;
    let timeouts = 0;
    let attempts = 0;
    const shouldRetry = (error: Error) =>
      worthRetrying(request.operation, error, { maxRetryAfterMs, timeouts });
    return pRetry(
      async (attempt) => {
        attempts = attempt;
        try {
          return await exchange(request, url, attempt);
        } catch (error) {
          if (error instanceof UpstreamTimeoutError) timeouts += 1;
          // A 401 earns one token refresh per call; a second 401 is final.
          if (!(error instanceof UnauthorizedError) || refreshed || !tokenProvider.refreshable) throw error;
          if (error.operation !== request.operation) throw error; // the token URL itself refused us
          refreshed = true;
          tokenProvider.invalidate();
          return exchange(request, url, attempt);
        }
      },
      {
        retries: retry.retries,
        minTimeout: retry.minTimeoutMs,
        maxTimeout: retry.maxTimeoutMs,
        factor: 2,
        randomize: true,
        signal: request.signal,
        shouldRetry: ({ error }) => shouldRetry(error),
        onFailedAttempt: async ({ error, attemptNumber, retriesLeft }) => {
          if (retriesLeft <= 0 || !shouldRetry(error)) return;
          logger?.warn(
            { operation: request.operation, attempt: attemptNumber, retriesLeft },
            `${error.message}; retrying`,
          );
          // Honour Retry-After: wait it out here; p-retry's own backoff then adds its jittered delay.
          const retryAfterMs = retryAfterOf(error);
          if (retryAfterMs !== undefined) await sleep(retryAfterMs);
        },
      },
    ).catch((error: unknown) => {
      throw saidGaveUp(error, attempts);
    });
  };
}
