import { z } from 'zod';
import { BodyTooLargeError, readBoundedText } from './boundedBody.ts';
import { isRetryableStatus } from './classify.ts';
import {
  NonRetryableUpstreamError,
  RetryableUpstreamError,
  scrubSecrets,
  UnauthorizedError,
  UpstreamTimeoutError,
} from './errors.ts';
import { OPTION_SETTING_NAMES, type SettingNames } from './settingNames.ts';

/** A token answer is a few hundred bytes; a megabyte is hostile, not a token. */
const TOKEN_ANSWER_MAX_BYTES = 1024 * 1024;

/** Supplies the bearer token for every call; `invalidate()` is called after a 401. */
export interface TokenProvider {
  getToken(): Promise<string>;
  invalidate(): void;
  /** False for a static token: a 401 cannot be cured by asking again. */
  readonly refreshable: boolean;
}

/** A fixed token (FULFILLMENT_API_TOKEN to the CLI and worker). */
export function staticTokenProvider(token: string): TokenProvider {
  if (typeof token !== 'string' || token.trim() === '') {
    throw new TypeError('staticTokenProvider: the token is empty; pass the API token as a string');
  }
  return { getToken: async () => token, invalidate: () => {}, refreshable: false };
}

export interface ClientCredentialsOptions {
  tokenUrl: string;
  clientId: string;
  clientSecret: string;
  fetch?: typeof fetch;
  /** Epoch ms; injected so tests can move time. */
  now?: () => number;
  /** Refresh this long before expiry (default 60 s, at most half the token's lifetime). */
  refreshSkewMs?: number;
  timeoutMs?: number;
  /** Lifetime assumed when the answer has no `expires_in` (default 300 s). */
  defaultLifetimeMs?: number;
  /** How a refusal names the credentials to check (default: the clientId and clientSecret options). */
  settingNames?: Pick<SettingNames, 'clientCredentials'>;
}

const OPERATION = 'POST token';

const tokenAnswerSchema = z.object({
  access_token: z.string().min(1),
  expires_in: z.coerce.number().positive().optional(),
});
const wrappedTokenAnswerSchema = z.object({
  isSuccess: z.boolean(),
  message: z.string().nullish(),
  payload: z.unknown(),
});

/**
 * OAuth2 client-credentials tokens (FULFILLMENT_TOKEN_URL): cached, refreshed before expiry, and
 * fetched once for all concurrent callers. Neither the token nor the secret ever enters a message.
 */
export function clientCredentialsTokenProvider(options: ClientCredentialsOptions): TokenProvider {
  const doFetch = options.fetch ?? globalThis.fetch;
  const now = options.now ?? Date.now;
  const skewMs = options.refreshSkewMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 30_000;
  const defaultLifetimeMs = options.defaultLifetimeMs ?? 300_000;
  const credentialsName = (options.settingNames ?? OPTION_SETTING_NAMES).clientCredentials;
  let cached: { token: string; refreshAt: number } | undefined;
  let inFlight: Promise<string> | undefined;

  async function fetchToken(): Promise<string> {
    const secrets = [options.clientSecret];
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: options.clientId,
      client_secret: options.clientSecret,
    });
    const signal = AbortSignal.timeout(timeoutMs);
    let status: number;
    let body: string;
    try {
      const response = await doFetch(options.tokenUrl, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
        body: form,
        signal,
      });
      status = response.status;
      body = await readBoundedText(response, TOKEN_ANSWER_MAX_BYTES);
    } catch (error) {
      if (error instanceof BodyTooLargeError) {
        throw new NonRetryableUpstreamError(
          `${OPERATION}: the token URL's answer is larger than ${TOKEN_ANSWER_MAX_BYTES} bytes; abandoned`,
          { operation: OPERATION, kind: 'token' },
        );
      }
      if (signal.aborted) {
        throw new UpstreamTimeoutError(`${OPERATION}: the token URL did not answer within ${timeoutMs} ms`, {
          operation: OPERATION,
          cause: error,
        });
      }
      throw new RetryableUpstreamError(`${OPERATION}: could not reach the token URL (${String(error)})`, {
        operation: OPERATION,
        kind: 'network',
        cause: error,
      });
    }
    if (status === 400 || status === 401 || status === 403) {
      throw new UnauthorizedError(
        `${OPERATION}: the token URL refused the client credentials (HTTP ${status}); check ${credentialsName}`,
        { operation: OPERATION, status },
      );
    }
    if (status < 200 || status > 299) {
      const Failure = isRetryableStatus(status) ? RetryableUpstreamError : NonRetryableUpstreamError;
      throw new Failure(`${OPERATION}: the token URL answered HTTP ${status}`, {
        operation: OPERATION,
        kind: 'token',
        status,
      });
    }
    const answer = readTokenAnswer(body, secrets);
    const issuedAt = now();
    const lifetimeMs = answer.expiresInS === undefined ? defaultLifetimeMs : answer.expiresInS * 1000;
    cached = { token: answer.token, refreshAt: issuedAt + lifetimeMs - Math.min(skewMs, lifetimeMs / 2) };
    return answer.token;
  }

  return {
    refreshable: true,
    async getToken() {
      if (cached && now() < cached.refreshAt) return cached.token;
      // One fetch for everyone waiting; cleared afterwards so a failure is not cached.
      inFlight ??= fetchToken().finally(() => {
        inFlight = undefined;
      });
      return inFlight;
    },
    invalidate() {
      cached = undefined;
    },
  };
}

function readTokenAnswer(body: string, secrets: string[]): { token: string; expiresInS: number | undefined } {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (error) {
    // A proxy's error page or a cut-off body under a 200: the token URL did not really answer, so
    // asking again is what helps, as for any other call's non-JSON 200 (classify.ts). A JSON answer
    // without a token, below, is final: the same URL would answer the same.
    throw new RetryableUpstreamError(`${OPERATION}: the token URL answer is not JSON`, {
      operation: OPERATION,
      kind: 'invalid-body',
      cause: error,
    });
  }
  const wrapped = wrappedTokenAnswerSchema.safeParse(json);
  if (wrapped.success) {
    if (!wrapped.data.isSuccess) {
      const said = wrapped.data.message ? `: ${scrubSecrets(wrapped.data.message, secrets)}` : '';
      throw new UnauthorizedError(`${OPERATION}: the token URL answered isSuccess=false${said}`, {
        operation: OPERATION,
      });
    }
    json = wrapped.data.payload;
  }
  const parsed = tokenAnswerSchema.safeParse(json);
  if (!parsed.success) {
    // The zod issues name fields only, never values, so they are safe to keep as the cause.
    throw new NonRetryableUpstreamError(
      `${OPERATION}: the token URL answer has no access_token (expected {access_token, expires_in})`,
      { operation: OPERATION, kind: 'token', cause: parsed.error.issues.map((i) => i.path.join('.')) },
    );
  }
  return { token: parsed.data.access_token, expiresInS: parsed.data.expires_in };
}
