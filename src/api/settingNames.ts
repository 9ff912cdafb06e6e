/**
 * How the client's error messages name the settings behind its options. Used as an SDK, the client
 * names its own options (a 401 says to check `tokenProvider`); the CLI and the worker build it from
 * environment variables and pass ENVIRONMENT_SETTING_NAMES (src/api/fromConfig.ts), so their users
 * read FULFILLMENT_API_TOKEN instead.
 */
export interface SettingNames {
  /** Where the service root comes from. */
  baseUrl: string;
  /** What to check when the service refuses the access token. */
  credentials: string;
  /** What to check when the token URL refuses the client id and secret. */
  clientCredentials: string;
  /** The per-call row cap, written as `<name>=<value>`. */
  maxRowsPerCall: string;
  /** The query-parameter renames. */
  queryParams: string;
  /** The cap on one answer's decoded size, written as `<name>=<value>`. */
  maxResponseBytes: string;
}

/** The names an SDK user wrote: the options of createFulfillmentClient and the token providers. */
export const OPTION_SETTING_NAMES: SettingNames = {
  baseUrl: 'the baseUrl option',
  credentials: 'the token your tokenProvider returns',
  clientCredentials: 'the clientId and clientSecret options',
  maxRowsPerCall: 'maxRowsPerCall',
  queryParams: 'the queryParams option',
  maxResponseBytes: 'maxResponseBytes',
};
