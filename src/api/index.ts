/** The upstream client's public surface: import from here, not from the files behind it. */
export { parseRetryAfter } from '../http/retryAfter.ts';
export {
  inProcessRateLimits,
  ORDER_DETAIL_OPERATION,
  type RateLimits,
  routeRateLimits,
  type UpstreamBudgets,
} from '../ratelimit/budgets.ts';
export {
  createRateLimiter,
  NO_RATE_LIMIT,
  type RateLimiter,
  RateLimitPausedError,
} from '../ratelimit/limiter.ts';
export { type CallReport, type ClientLogger, DEFAULT_RETRY, type RetrySettings } from './callHooks.ts';
export { classifyAnswer, classifyThrown } from './classify.ts';
export { createFulfillmentClient, type FulfillmentClientOptions } from './client.ts';
export { CLIENT_DEFAULTS } from './clientDefaults.ts';
export * from './errors.ts';
export {
  type ClientDeps,
  createClientFromConfig,
  createTokenProviderFromSettings,
  ENVIRONMENT_SETTING_NAMES,
} from './fromConfig.ts';
export type {
  FulfillmentClient,
  TransferInCreateInput,
  WineProductCreateInput,
} from './fulfillmentClient.ts';
export { OPERATIONS, type OperationId } from './operations.ts';
export type * from './params.ts';
export {
  DEFAULT_QUERY_PARAMS,
  QueryParamOverrideError,
  type QueryParamTable,
  resolveQueryParams,
} from './queryParams.ts';
export { OPTION_SETTING_NAMES, type SettingNames } from './settingNames.ts';
export { MAX_RECORD_DEPTH } from './storable.ts';
export { clientCredentialsTokenProvider, staticTokenProvider, type TokenProvider } from './tokenProvider.ts';
export type { DetailResult, ListResult, RejectedRecord, RepairedRecord, WriteResult } from './validate.ts';
