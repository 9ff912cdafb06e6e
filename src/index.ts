/**
 * The package's public API, `import { createFulfillmentClient } from 'fulfillment-sync'`: the typed
 * client of the fulfillment API (all 17 operations), its errors and the spec's record types.
 * @example
 * const client = createFulfillmentClient({
 *   baseUrl: 'https://fulfillment.example.com',
 *   tokenProvider: staticTokenProvider(process.env.MY_API_TOKEN),
 * });
 * // Every other option has a default: timeoutMs 30 000, rateLimitRps 10 (CLIENT_DEFAULTS).
 * const { records } = await client.listReturns({ accountNumber: 'ACC100', beginDate: '2026-11-01' });
 */
export * from './api/index.ts';
export type * from './api/records/index.ts';
