import { describe, expect, it } from 'vitest';
import { CLIENT_DEFAULTS, createFulfillmentClient, staticTokenProvider } from '../../src/api/index.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { ok, startRecordingServer } from './helpers/recordingServer.ts';

/**
 * createFulfillmentClient as plain JavaScript calls it: only baseUrl and tokenProvider are needed,
 * and a wrong or missing option is named at once, not discovered as a TypeError deep in a call.
 */

/** The options as an untyped caller passes them. */
const untyped = (options: Record<string, unknown>) =>
  createFulfillmentClient(options as unknown as Parameters<typeof createFulfillmentClient>[0]);

describe('createFulfillmentClient options', () => {
  it('works with baseUrl and tokenProvider alone', async () => {
    const server = await startRecordingServer();
    try {
      server.reply(ok([{ sku: 'A1', qtyOnHand: 3 }]));
      const client = createFulfillmentClient({
        baseUrl: server.url,
        tokenProvider: staticTokenProvider('sdk-token-123456'),
      });
      const { records } = await client.listOwnedInventory({ supplierId: 'S1' });
      expect(records.map((r) => r.sku)).toEqual(['A1']);
      expect(server.requests[0]?.headers.authorization).toBe('Bearer sdk-token-123456');
    } finally {
      await server.close();
    }
  });

  it('has the defaults the environment variables have', () => {
    const api = loadConfig({}).api;
    expect(CLIENT_DEFAULTS).toEqual({ timeoutMs: api.timeoutMs, rateLimitRps: api.rateLimitRps });
  });

  it('names the option at fault', () => {
    const tokenProvider = staticTokenProvider('sdk-token-123456');
    expect(() => untyped({ tokenProvider })).toThrow(
      /^createFulfillmentClient: the baseUrl option is required/,
    );
    expect(() => untyped({ baseUrl: 'https://x.example' })).toThrow(
      /^createFulfillmentClient: the tokenProvider option is required/,
    );
    expect(() => untyped({ baseUrl: 'https://x.example', tokenProvider, timeoutMs: '30s' })).toThrow(
      'createFulfillmentClient: the timeoutMs option must be a whole number of at least 1, not "30s"',
    );
    expect(() => untyped({ baseUrl: 'https://x.example', tokenProvider, rateLimitRps: -1 })).toThrow(
      /the rateLimitRps option must be a number of at least 0/,
    );
    expect(() => untyped({ baseUrl: 'ftp://x.example', tokenProvider })).toThrow(
      /not an absolute http\(s\) URL; set the baseUrl option like https:\/\/host/,
    );
    expect(() =>
      untyped({ baseUrl: 'https://x.example', tokenProvider, queryParams: { 'GET Nowhere': { a: 'b' } } }),
    ).toThrow(/^the queryParams option is invalid: unknown operation "GET Nowhere"/);
    expect(() => staticTokenProvider(undefined as unknown as string)).toThrow(
      /^staticTokenProvider: the token is empty/,
    );
  });
});
