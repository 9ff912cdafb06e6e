import { CLIENT_DEFAULTS } from './clientDefaults.ts';
import type { TokenProvider } from './tokenProvider.ts';

/** The options createFulfillmentClient checks itself (plain JavaScript callers get no type check). */
interface CheckedOptions {
  baseUrl?: unknown;
  tokenProvider?: unknown;
  timeoutMs?: unknown;
  rateLimitRps?: unknown;
  orderDetailRps?: unknown;
}

/** The numbers the transport and rate limits run with, defaults filled in. */
export interface ClientNumbers {
  timeoutMs: number;
  rateLimitRps: number;
  orderDetailRps: number | undefined;
}

/**
 * Checks what a caller passed, naming the option at fault, and fills in the defaults: from plain
 * JavaScript a missing timeoutMs would otherwise reach AbortSignal.timeout as undefined and fail
 * every call with ERR_INVALID_ARG_TYPE.
 */
export function checkClientOptions(options: CheckedOptions): ClientNumbers {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('createFulfillmentClient: pass an options object with baseUrl and tokenProvider');
  }
  if (typeof options.baseUrl !== 'string' || options.baseUrl === '') {
    throw new TypeError(
      'createFulfillmentClient: the baseUrl option is required (the service root, like https://host)',
    );
  }
  if (!isTokenProvider(options.tokenProvider)) {
    throw new TypeError(
      'createFulfillmentClient: the tokenProvider option is required (e.g. staticTokenProvider(token) or clientCredentialsTokenProvider({...}))',
    );
  }
  return {
    timeoutMs: numberOption('timeoutMs', options.timeoutMs, CLIENT_DEFAULTS.timeoutMs, {
      min: 1,
      integer: true,
    }),
    rateLimitRps: numberOption('rateLimitRps', options.rateLimitRps, CLIENT_DEFAULTS.rateLimitRps, {
      min: 0,
    }),
    orderDetailRps:
      options.orderDetailRps === undefined
        ? undefined
        : numberOption('orderDetailRps', options.orderDetailRps, 0, { min: 0 }),
  };
}

function isTokenProvider(value: unknown): value is TokenProvider {
  const candidate = value as Partial<TokenProvider> | null | undefined;
  return typeof candidate?.getToken === 'function' && typeof candidate.invalidate === 'function';
}

function numberOption(
  name: string,
  value: unknown,
  fallback: number,
  rule: { min: number; integer?: boolean },
): number {
  if (value === undefined) return fallback;
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    value >= rule.min &&
    (!rule.integer || Number.isInteger(value));
  if (!ok) {
    const what = rule.integer ? 'a whole number' : 'a number';
    throw new TypeError(
      `createFulfillmentClient: the ${name} option must be ${what} of at least ${rule.min}, not ${JSON.stringify(value)}`,
    );
  }
  return value;
}
