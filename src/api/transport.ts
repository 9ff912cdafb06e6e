import pRetry from 'p-retry';
import type { RateLimits } from '../ratelimit/budgets.ts';
import { NO_RATE_LIMIT } from '../ratelimit/limiter.ts';
import { type ApiAnswer, type ApiRequest, checkBaseUrl, requestUrl } from './apiCall.ts';
import { DEFAULT_MAX_RESPONSE_BYTES } from './boundedBody.ts';
import { type CallHooks, DEFAULT_RETRY } from './callHooks.ts';
import { UnauthorizedError, UpstreamTimeoutError } from './errors.ts';
import { createExchange } from './exchange.ts';
import { retryAfterOf, saidGaveUp, worthRetrying } from './retryPolicy.ts';
import { OPTION_SETTING_NAMES, type SettingNames } from './settingNames.ts';
import type { TokenProvider } from './tokenProvider.ts';

/** Where calls go, with which token, fetch and budgets, and the hooks they report to. */
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

/** One call: every attempt it takes (see createTransport), resolving to the successful answer. */
export type Transport = (request: ApiRequest) => Promise<ApiAnswer>;

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Builds the transport: URL, headers, timeout, envelope classification, retries with backoff and
 * Retry-After, a client-side rate limit, and the 401 path (refresh the token once, then fail).
 */
export function createTransport(options: TransportOptions): Transport {
  const sleep = options.sleep ?? defaultSleep;
  const retry = { ...DEFAULT_RETRY, ...options.retry };
  const maxRetryAfterMs = retry.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs ?? 60_000;
  const settingNames = options.settingNames ?? OPTION_SETTING_NAMES;
  const baseUrl = checkBaseUrl(options.baseUrl, settingNames);
  const { tokenProvider, logger } = options;
  const exchange = createExchange({
    fetch: options.fetch ?? globalThis.fetch,
    tokenProvider,
    rateLimits: options.rateLimits ?? (() => NO_RATE_LIMIT),
    timeoutMs: options.timeoutMs,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
    settingNames,
    retry,
    now: options.now ?? Date.now,
    onCall: options.onCall,
    logger,
  });

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
