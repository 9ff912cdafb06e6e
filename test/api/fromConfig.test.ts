import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerTooLargeError } from '../../src/api/errors.ts';
import { createClientFromConfig } from '../../src/api/fromConfig.ts';
import type { Config } from '../../src/config/types.ts';
import { ok, type RecordingServer, startRecordingServer } from './helpers/recordingServer.ts';

let api: RecordingServer;
beforeAll(async () => {
  api = await startRecordingServer();
});
afterAll(() => api.close());

function config(apiSettings: Partial<Config['api']>): Config {
  return {
    api: {
      baseUrl: api.url,
      token: undefined,
      tokenUrl: undefined,
      clientId: undefined,
      clientSecret: undefined,
      timeoutMs: 2000,
      rateLimitRps: 0,
      queryParams: {},
      maxRowsPerWindow: 10_000,
      ...apiSettings,
    },
  } as Config; // only `api` is read by the client factory
}

describe('createClientFromConfig', () => {
  it('uses the static token and the query overrides', async () => {
    const client = createClientFromConfig(
      config({ token: 'cfg-token-123', queryParams: { 'GET Finances/invoices': { accountNumber: 'acct' } } }),
    );
    api.reply(ok([]));
    await client.listInvoices({ accountNumber: 'AC' });
    expect(api.requests.at(-1)?.headers.authorization).toBe('Bearer cfg-token-123');
    expect(api.requests.at(-1)?.query).toEqual({ acct: 'AC' });
  });

  it('uses the token URL when client credentials are set', async () => {
    api.reply({ body: { access_token: 'from-url-token', expires_in: 600 } }, ok([]));
    const client = createClientFromConfig(
      config({ tokenUrl: `${api.url}/token`, clientId: 'id', clientSecret: 'secret-value' }),
    );
    await client.listInvoices({});
    expect(api.requests.at(-2)?.path).toBe('/token');
    expect(api.requests.at(-1)?.headers.authorization).toBe('Bearer from-url-token');
  });

  it('caps every list call at FULFILLMENT_MAX_ROWS_PER_WINDOW rows', async () => {
    const client = createClientFromConfig(config({ token: 'cfg-token-123', maxRowsPerWindow: 2 }));
    api.reply(ok([{ invoiceNumber: 'I1' }, { invoiceNumber: 'I2' }]));
    await expect(client.listInvoices({})).rejects.toBeInstanceOf(AnswerTooLargeError);
  });

  it('refuses a config without a base URL or credentials', () => {
    expect(() => createClientFromConfig(config({ baseUrl: undefined, token: 't-1234' }))).toThrow(
      /FULFILLMENT_API_URL/,
    );
    expect(() => createClientFromConfig(config({}))).toThrow(/FULFILLMENT_API_TOKEN/);
  });
});

describe('base URL', () => {
  it('must be an absolute http(s) URL, and its password is not echoed', () => {
    expect(() =>
      createClientFromConfig(config({ baseUrl: 'ftp://u:pw-secret-1@host', token: 't-1234' })),
    ).toThrow(/not an absolute http\(s\) URL; set FULFILLMENT_API_URL/);
    try {
      createClientFromConfig(config({ baseUrl: 'ftp://u:pw-secret-1@host', token: 't-1234' }));
    } catch (error) {
      expect((error as Error).message).not.toContain('pw-secret-1');
    }
  });
});
