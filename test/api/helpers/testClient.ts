import { createFulfillmentClient, type FulfillmentClientOptions } from '../../../src/api/client.ts';
import type { FulfillmentClient } from '../../../src/api/fulfillmentClient.ts';
import { staticTokenProvider } from '../../../src/api/tokenProvider.ts';

export const TEST_TOKEN = 'tok-static-abcdef123456';

/** A client against a test server with tiny retry delays, so failure tests stay fast. */
export function testClient(
  baseUrl: string,
  overrides: Partial<FulfillmentClientOptions> = {},
): FulfillmentClient {
  return createFulfillmentClient({
    baseUrl,
    tokenProvider: staticTokenProvider(TEST_TOKEN),
    timeoutMs: 2_000,
    rateLimitRps: 0,
    retry: { retries: 3, minTimeoutMs: 1, maxTimeoutMs: 5 },
    ...overrides,
  });
}
