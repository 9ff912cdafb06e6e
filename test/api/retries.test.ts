import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CallReport } from '../../src/api/index.ts';
import {
  AnswerTooLargeError,
  NonRetryableUpstreamError,
  RetryableUpstreamError,
  UpstreamError,
  UpstreamTimeoutError,
} from '../../src/api/index.ts';
import { ok, type RecordingServer, startRecordingServer } from './helpers/recordingServer.ts';
import { testClient } from './helpers/testClient.ts';

let server: RecordingServer;

beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const query = { supplierId: 'S1' };
const rows = ok([{ sku: 'X1' }]);

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UpstreamError);
  return error as UpstreamError;
}

describe('retries', () => {
  it('honours Retry-After in seconds on 429 before retrying', async () => {
    const waits: number[] = [];
    const client = testClient(server.url, {
      sleep: async (ms) => {
        waits.push(ms);
      },
    });
    server.reply(
      { status: 429, headers: { 'retry-after': '2' }, body: { isSuccess: false, message: 'slow down' } },
      rows,
    );
    const result = await client.listOwnedInventory(query);
    expect(result.records).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
    expect(waits).toEqual([2000]);
  });

  it('really waits for a 1 s Retry-After when nothing is injected', async () => {
    const client = testClient(server.url);
    server.reply({ status: 429, headers: { 'retry-after': '1' } }, rows);
    await client.listOwnedInventory(query);
    const [first, second] = server.requests;
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(990);
  });

  it('fails at once with retryAfterMs when the wait is longer than maxRetryAfterMs', async () => {
    const client = testClient(server.url, {
      retry: { retries: 3, minTimeoutMs: 1, maxTimeoutMs: 5, maxRetryAfterMs: 1000 },
    });
    server.reply({ status: 429, headers: { 'retry-after': '120' } });
    const error = await failure(client.listOwnedInventory(query));
    expect(error).toBeInstanceOf(RetryableUpstreamError);
    expect((error as RetryableUpstreamError).retryAfterMs).toBe(120_000);
    expect(server.requests).toHaveLength(1);
  });

  it('retries a 429 saying "Too many requests" after its Retry-After, as rate limiting', async () => {
    const waits: number[] = [];
    const calls: CallReport[] = [];
    const client = testClient(server.url, {
      sleep: async (ms) => {
        waits.push(ms);
      },
      onCall: (call) => calls.push(call),
    });
    server.reply(
      {
        status: 429,
        headers: { 'retry-after': '3' },
        body: { isSuccess: false, message: 'Too many requests', payload: null },
      },
      rows,
    );
    const result = await client.listOwnedInventory(query);
    expect(result.records).toHaveLength(1);
    expect(waits).toEqual([3000]);
    expect(calls[0]?.error?.kind).toBe('rate-limited');
  });

  it('retries a 200 whose body is an HTML page or not an envelope, like a 5xx', async () => {
    const calls: CallReport[] = [];
    const client = testClient(server.url, { onCall: (call) => calls.push(call) });
    server.reply(
      { rawBody: '<html><body><h1>Down for maintenance</h1></body></html>' },
      { body: { data: [] } },
      rows,
    );
    const result = await client.listOwnedInventory(query);
    expect(result.records).toHaveLength(1);
    expect(calls.map((c) => [c.status, c.error?.name, c.error?.kind])).toEqual([
      [200, 'RetryableUpstreamError', 'invalid-body'],
      [200, 'RetryableUpstreamError', 'invalid-body'],
      [200, undefined, undefined],
    ]);
  });

  it('does not repeat a create whose 200 answer is garbled (it was probably applied)', async () => {
    const client = testClient(server.url);
    server.reply({ rawBody: '<html>oops</html>' }, ok(['IN-1']));
    const error = await failure(
      client.createTransferIn({
        supplierId: 'S1',
        referenceNumber: 'R',
        deliveryMethodCode: 'CLIENT_DROPOFF',
      }),
    );
    expect(error.kind).toBe('invalid-body');
    expect(server.requests).toHaveLength(1);
  });

  it('retries 503 and reports every attempt', async () => {
    const calls: CallReport[] = [];
    const client = testClient(server.url, { onCall: (call) => calls.push(call) });
    server.reply({ status: 503 }, { status: 502, rawBody: '<html>bad gateway</html>' }, rows);
    const result = await client.listOwnedInventory(query);
    expect(result.records).toHaveLength(1);
    expect(calls.map((c) => [c.attempt, c.status, c.error?.name])).toEqual([
      [1, 503, 'RetryableUpstreamError'],
      [2, 502, 'RetryableUpstreamError'],
      [3, 200, undefined],
    ]);
  });

  it('gives up after the configured retries with the last retryable error', async () => {
    const client = testClient(server.url, { retry: { retries: 2, minTimeoutMs: 1, maxTimeoutMs: 2 } });
    server.reply({ status: 500 }, { status: 500 }, { status: 500 }, rows);
    const error = await failure(client.listOwnedInventory(query));
    expect(error).toBeInstanceOf(RetryableUpstreamError);
    expect(error.status).toBe(500);
    expect(server.requests).toHaveLength(3);
    // The caller holds it now: the message says what happened, not that a retry is coming.
    expect(error.message).toBe('GET Inventories/Owned: HTTP 500; gave up after 3 attempts');
  });

  it('says what happened to a retryable failure it did not repeat (a Retry-After longer than it waits)', async () => {
    const client = testClient(server.url, {
      retry: { retries: 3, minTimeoutMs: 1, maxTimeoutMs: 5, maxRetryAfterMs: 1000 },
    });
    server.reply({ status: 503, headers: { 'retry-after': '120' } });
    const error = await failure(client.listOwnedInventory(query));
    expect(error.message).toBe('GET Inventories/Owned: HTTP 503; gave up after 1 attempt');
    expect(error.message).not.toMatch(/will be retried/);
  });

  it('times out a server that never answers and retries', async () => {
    const client = testClient(server.url, { timeoutMs: 150 });
    server.reply({ hang: true }, rows);
    const result = await client.listOwnedInventory(query);
    expect(result.records).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it('reports a timeout as UpstreamTimeoutError when every attempt hangs', async () => {
    const client = testClient(server.url, {
      timeoutMs: 100,
      retry: { retries: 1, minTimeoutMs: 1, maxTimeoutMs: 1 },
    });
    server.reply({ hang: true }, { hang: true });
    const error = await failure(client.listOwnedInventory(query));
    expect(error).toBeInstanceOf(UpstreamTimeoutError);
    expect(error.kind).toBe('timeout');
    expect(server.requests).toHaveLength(2);
  });

  it('retries a dropped connection', async () => {
    const client = testClient(server.url);
    server.reply({ destroy: true }, rows);
    const result = await client.listOwnedInventory(query);
    expect(result.records).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it('does not repeat a create after a dropped connection (it may have been applied)', async () => {
    const client = testClient(server.url);
    server.reply({ destroy: true }, ok(['IN-1']));
    const error = await failure(
      client.createTransferIn({
        supplierId: 'S1',
        referenceNumber: 'R',
        deliveryMethodCode: 'CLIENT_DROPOFF',
      }),
    );
    expect(error.kind).toBe('network');
    expect(server.requests).toHaveLength(1);
  });
  it('repeats a create the service refused outright (503)', async () => {
    const client = testClient(server.url);
    server.reply({ status: 503 }, ok(['IN-1']));
    const result = await client.createTransferIn({
      supplierId: 'S1',
      referenceNumber: 'R',
      deliveryMethodCode: 'CLIENT_DROPOFF',
    });
    expect(result.messages).toEqual(['IN-1']);
    expect(server.requests).toHaveLength(2);
  });
});

describe('no retry', () => {
  it('400 fails at once as non-retryable with the upstream message', async () => {
    const client = testClient(server.url);
    server.reply({ status: 400, body: { isSuccess: false, message: 'supplierId is invalid' } }, rows);
    const error = await failure(client.listOwnedInventory(query));
    expect(error).toBeInstanceOf(NonRetryableUpstreamError);
    expect(error.message).toContain('supplierId is invalid');
    expect(server.requests).toHaveLength(1);
  });

  it('isSuccess:false with HTTP 200 fails at once', async () => {
    const client = testClient(server.url);
    server.reply({ body: { isSuccess: false, message: 'Unknown supplier', payload: null } }, rows);
    const error = await failure(client.listOwnedInventory(query));
    expect(error).toBeInstanceOf(NonRetryableUpstreamError);
    expect(error.kind).toBe('envelope-failure');
    expect(server.requests).toHaveLength(1);
  });

  it('isSuccess:false whose message says to try again is retried', async () => {
    const client = testClient(server.url);
    server.reply({ body: { isSuccess: false, message: 'Service busy, please try again later' } }, rows);
    const result = await client.listOwnedInventory(query);
    expect(result.records).toHaveLength(1);
    expect(server.requests).toHaveLength(2);
  });

  it('isSuccess:false saying "Do not retry" fails at once', async () => {
    const client = testClient(server.url);
    server.reply({ body: { isSuccess: false, message: 'Invalid warehouse code. Do not retry.' } }, rows);
    const error = await failure(client.listOwnedInventory(query));
    expect(error).toBeInstanceOf(NonRetryableUpstreamError);
    expect(error.message).toContain('Do not retry');
    expect(server.requests).toHaveLength(1);
  });

  it('a 413 or "Request too large: narrow the date range" fails at once as too large', async () => {
    const client = testClient(server.url);
    server.reply(
      { status: 413, rawBody: 'Payload Too Large' },
      { body: { isSuccess: false, message: 'Request too large: narrow the date range', payload: null } },
      rows,
    );
    const byStatus = await failure(client.listOwnedInventory(query));
    const byMessage = await failure(client.listOwnedInventory(query));
    for (const error of [byStatus, byMessage]) expect(error).toBeInstanceOf(AnswerTooLargeError);
    expect(byMessage.message).toContain('narrow the date range');
    expect(server.requests).toHaveLength(2);
  });

  it('a non-array list payload fails the call', async () => {
    const client = testClient(server.url);
    server.reply(ok({ sku: 'X1' }));
    const error = await failure(client.listOwnedInventory(query));
    expect(error).toBeInstanceOf(NonRetryableUpstreamError);
    expect(error.kind).toBe('invalid-payload');
  });
});

describe('rate limit', () => {
  it('spaces calls to the configured requests per second', async () => {
    const client = testClient(server.url, { rateLimitRps: 10 });
    const started = Date.now();
    await Promise.all(Array.from({ length: 4 }, () => client.listOwnedInventory(query)));
    // A burst of 1 then 100 ms per request: the fourth goes no sooner than ~300 ms in.
    expect(Date.now() - started).toBeGreaterThanOrEqual(280);
    expect(server.requests).toHaveLength(4);
  });
});
