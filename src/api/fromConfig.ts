import type { ApiSettings, Config } from '../config/types.ts';
import type { RateLimits } from '../ratelimit/budgets.ts';
import type { CallReport, ClientLogger, RetrySettings } from './callHooks.ts';
import { createFulfillmentClient } from './client.ts';
import type { FulfillmentClient } from './fulfillmentClient.ts';
import type { SettingNames } from './settingNames.ts';
import { clientCredentialsTokenProvider, staticTokenProvider, type TokenProvider } from './tokenProvider.ts';

export interface ClientDeps {
  fetch?: typeof fetch;
  logger?: ClientLogger;
  onCall?: (report: CallReport) => void;
  retry?: Partial<RetrySettings>;
  now?: () => number;
  /** Budgets shared with other processes (src/ratelimit); default: this process's own. */
  rateLimits?: RateLimits;
}

/** How the client's messages name its settings to CLI and worker users: the environment variables. */
export const ENVIRONMENT_SETTING_NAMES: SettingNames = {
  baseUrl: 'FULFILLMENT_API_URL',
  credentials: 'FULFILLMENT_API_TOKEN or the client credentials',
  clientCredentials: 'FULFILLMENT_CLIENT_ID and FULFILLMENT_CLIENT_SECRET',
  maxRowsPerCall: 'FULFILLMENT_MAX_ROWS_PER_WINDOW',
  queryParams: 'FULFILLMENT_QUERY_PARAMS',
  maxResponseBytes: 'FULFILLMENT_MAX_RESPONSE_BYTES',
};

/** The token provider the settings describe: a static token wins over client credentials. */
export function createTokenProviderFromSettings(
  api: ApiSettings,
  deps: Pick<ClientDeps, 'fetch' | 'now'> = {},
): TokenProvider {
  if (api.token?.trim()) return staticTokenProvider(api.token);
  if (api.tokenUrl && api.clientId && api.clientSecret) {
    return clientCredentialsTokenProvider({
      tokenUrl: api.tokenUrl,
      clientId: api.clientId,
      clientSecret: api.clientSecret,
      fetch: deps.fetch,
      now: deps.now,
      timeoutMs: api.timeoutMs,
      settingNames: ENVIRONMENT_SETTING_NAMES,
    });
  }
  throw new Error(
    'no upstream credentials: set FULFILLMENT_API_TOKEN, or FULFILLMENT_TOKEN_URL with FULFILLMENT_CLIENT_ID and FULFILLMENT_CLIENT_SECRET',
  );
}

/** Builds the client from the effective configuration (the real service; sandbox wiring is separate). */
export function createClientFromConfig(config: Config, deps: ClientDeps = {}): FulfillmentClient {
  const { api } = config;
  if (!api.baseUrl) {
    throw new Error(
      'FULFILLMENT_API_URL is not set: the client needs the service URL (sandbox mode starts the simulator instead)',
    );
  }
  return createFulfillmentClient({
    baseUrl: api.baseUrl,
    tokenProvider: createTokenProviderFromSettings(api, deps),
    fetch: deps.fetch,
    timeoutMs: api.timeoutMs,
    rateLimitRps: api.rateLimitRps,
    orderDetailRps: api.orderDetailRps,
    rateLimits: deps.rateLimits,
    queryParams: api.queryParams,
    maxRowsPerCall: api.maxRowsPerWindow,
    settingNames: ENVIRONMENT_SETTING_NAMES,
    maxResponseBytes: api.maxResponseBytes,
    retry: deps.retry,
    onCall: deps.onCall,
    logger: deps.logger,
    now: deps.now,
  });
}
