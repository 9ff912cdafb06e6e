import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  clientCredentialsTokenProvider,
  ENVIRONMENT_SETTING_NAMES,
  isRetryable,
  type SettingNames,
  staticTokenProvider,
  type TokenProvider,
  UnauthorizedError,
  UpstreamError,
} from '../../src/api/index.ts';
import { startSimulator } from '../../src/simulator/index.ts';
import { ok, type RecordingServer, startRecordingServer } from './helpers/recordingServer.ts';
import { testClient } from './helpers/testClient.ts';

const SECRET = 'client-secret-9f8e7d6c5b';
let api: RecordingServer;
let tokens: RecordingServer;
let issued: number;

beforeAll(async () => {
  api = await startRecordingServer();
  tokens = await startRecordingServer();
});
afterAll(async () => {
  await api.close();
  await tokens.close();
});
beforeEach(() => {
  api.reset();
  tokens.reset();
  issued = 0;
  // Each token request gets a fresh, distinguishable token.
  tokens.fallback(() => ({ body: { access_token: `access-token-${++issued}-abcdef`, expires_in: 3600 } }));
});

function provider(now: () => number = Date.now, settingNames?: SettingNames): TokenProvider {
  return clientCredentialsTokenProvider({
    tokenUrl: `${tokens.url}/oauth/token`,
    clientId: 'client-1',
    clientSecret: SECRET,
    now,
    settingNames,
  });
}

const query = { supplierId: 'S1' };

describe('token URL (OAuth2 client credentials)', () => {
  it('POSTs a client-credentials form and sends the token as a bearer', async () => {
    const client = testClient(api.url, { tokenProvider: provider() });
    await client.listOwnedInventory(query);
    const [tokenRequest] = tokens.requests;
    expect(tokenRequest?.method).toBe('POST');
    expect(tokenRequest?.headers['content-type']).toContain('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(tokenRequest?.body))).toEqual({
      grant_type: 'client_credentials',
      client_id: 'client-1',
      client_secret: SECRET,
    });
    expect(api.requests[0]?.headers.authorization).toBe('Bearer access-token-1-abcdef');
  });

  it('accepts the envelope-wrapped token answer', async () => {
    tokens.reply({
      body: { isSuccess: true, message: null, payload: { access_token: 'wrapped-token-1', expires_in: 60 } },
    });
    expect(await provider().getToken()).toBe('wrapped-token-1');
  });

  it('caches the token and refreshes it 60 s before expiry (injected clock)', async () => {
    let now = 0;
    const tp = provider(() => now);
    expect(await tp.getToken()).toBe('access-token-1-abcdef');
    now = (3600 - 61) * 1000;
    expect(await tp.getToken()).toBe('access-token-1-abcdef');
    expect(tokens.requests).toHaveLength(1);
    now = (3600 - 59) * 1000;
    expect(await tp.getToken()).toBe('access-token-2-abcdef');
    expect(tokens.requests).toHaveLength(2);
  });

  it('concurrent callers share one token request', async () => {
    const tp = provider();
    const all = await Promise.all(Array.from({ length: 5 }, () => tp.getToken()));
    expect(new Set(all)).toEqual(new Set(['access-token-1-abcdef']));
    expect(tokens.requests).toHaveLength(1);
  });

  it('a 200 whose body is not JSON (a proxy page, a cut-off answer) is retried like any such 200', async () => {
    tokens.reply({ status: 200, rawBody: '<html><body>502 Bad Gateway</body></html>' });
    const error = await provider()
      .getToken()
      .catch((e: unknown) => e);
    expect(isRetryable(error)).toBe(true);
    // Through the client: retried, then the next token answer is used.
    tokens.reply({ status: 200, rawBody: '{"access_token": "cut-off' });
    const client = testClient(api.url, { tokenProvider: provider() });
    await client.listOwnedInventory(query);
    expect(api.requests[0]?.headers.authorization).toBe('Bearer access-token-1-abcdef');
  });

  it('a JSON answer without an access_token stays final: asking again would not help', async () => {
    tokens.reply({ body: { token_type: 'bearer' } });
    const error = await provider()
      .getToken()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(isRetryable(error)).toBe(false);
  });

  it('refused credentials are an UnauthorizedError that names the options, not the secret', async () => {
    tokens.reply({ status: 401, body: { error: 'invalid_client', client_secret: SECRET } });
    const error = await provider()
      .getToken()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    // An SDK user passed clientId and clientSecret: no environment variable of ours is theirs.
    expect(String((error as Error).message)).toMatch(/check the clientId and clientSecret options$/);
    expect(String((error as Error).message)).not.toMatch(/FULFILLMENT_/);
    expect(JSON.stringify(error)).not.toContain(SECRET);
    expect((error as Error).message).not.toContain(SECRET);
  });

  it('the CLI and worker name their environment variables instead', async () => {
    tokens.reply({ status: 401, body: { error: 'invalid_client' } });
    const error = await provider(Date.now, ENVIRONMENT_SETTING_NAMES)
      .getToken()
      .catch((e: unknown) => e);
    expect(String((error as Error).message)).toMatch(
      /check FULFILLMENT_CLIENT_ID and FULFILLMENT_CLIENT_SECRET$/,
    );
  });
});

describe('401', () => {
  it('refreshes the token once and succeeds', async () => {
    const client = testClient(api.url, { tokenProvider: provider() });
    api.reply({ status: 401 }, ok([{ sku: 'X1' }]));
    const result = await client.listOwnedInventory(query);
    expect(result.records).toHaveLength(1);
    expect(tokens.requests).toHaveLength(2);
    expect(api.requests.map((r) => r.headers.authorization)).toEqual([
      'Bearer access-token-1-abcdef',
      'Bearer access-token-2-abcdef',
    ]);
  });

  it('fails with UnauthorizedError on a second 401, without further retries', async () => {
    const client = testClient(api.url, { tokenProvider: provider() });
    api.reply(
      { status: 401 },
      { status: 401, body: { isSuccess: false, message: 'token access-token-2-abcdef expired' } },
    );
    const error = await client.listOwnedInventory(query).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect(tokens.requests).toHaveLength(2);
    expect(api.requests).toHaveLength(2);
    // The service echoed the token: it must not reach our message.
    expect((error as Error).message).not.toContain('access-token-2-abcdef');
    expect((error as Error).message).toContain('[redacted]');
    expect((error as Error).message).toMatch(/check the token your tokenProvider returns$/);
    expect((error as Error).message).not.toMatch(/FULFILLMENT_/);
  });

  it('through the CLI and worker, names FULFILLMENT_API_TOKEN', async () => {
    const client = testClient(api.url, { settingNames: ENVIRONMENT_SETTING_NAMES });
    api.reply({ status: 401 });
    const error = await client.listOwnedInventory(query).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnauthorizedError);
    expect((error as Error).message).toMatch(/check FULFILLMENT_API_TOKEN or the client credentials$/);
  });
});

describe('secrets never reach error messages', () => {
  it('scrubs the bearer token an upstream message echoes, for every failure kind', async () => {
    const token = 'static-secret-token-42';
    const client = testClient(api.url, {
      tokenProvider: { getToken: async () => token, invalidate: () => {}, refreshable: false },
      retry: { retries: 0, minTimeoutMs: 1, maxTimeoutMs: 1 },
    });
    const echo = `bad header Authorization: Bearer ${token} (token=${token})`;
    api.reply(
      { status: 400, body: { isSuccess: false, message: echo } },
      { status: 503, body: { isSuccess: false, message: echo } },
      { body: { isSuccess: false, message: echo } },
      { status: 401, body: { isSuccess: false, message: echo } },
    );
    for (let i = 0; i < 4; i++) {
      const error = await client.listOwnedInventory(query).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UpstreamError);
      const upstream = error as UpstreamError;
      expect(`${upstream.message} ${upstream.upstreamMessage} ${upstream.stack}`).not.toContain(token);
    }
    expect(api.requests).toHaveLength(4);
  });
});

describe('a refused token, as the simulator words it', () => {
  it('keeps the words of the message ("bearer token") while no secret is in it', async () => {
    const sim = await startSimulator({
      seed: 42,
      clock: 'manual',
      start: new Date('2026-11-03T20:00:00Z'),
      tokens: ['right-token-1234'],
      volume: { historyDays: 1 },
    });
    try {
      const client = testClient(sim.url, {
        tokenProvider: staticTokenProvider('wrong-token-5678'),
        retry: { retries: 0, minTimeoutMs: 1, maxTimeoutMs: 1 },
      });
      const error = await client.listOwnedInventory({ supplierId: 'SUP100' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect((error as Error).message).toBe(
        'GET Inventories/Owned: HTTP 401: missing or invalid bearer token; the service rejected the access token, check the token your tokenProvider returns',
      );
    } finally {
      await sim.close();
    }
  });
});
