import { afterEach, describe, expect, it } from 'vitest';
import {
  AnswerTooLargeError,
  clientCredentialsTokenProvider,
  NonRetryableUpstreamError,
  staticTokenProvider,
  UpstreamTimeoutError,
} from '../../src/api/index.ts';
import { createTransport } from '../../src/api/transport.ts';
import { type HostileKind, type HostileUpstream, startHostileUpstream } from '../helpers/hostileUpstream.ts';

/** Every answer is bounded: its decoded size, compressed or not, and the time its body takes. */

let upstream: HostileUpstream | undefined;
afterEach(async () => {
  await upstream?.close();
  upstream = undefined;
});

const MiB = 1024 * 1024;

async function transportTo(hostile: HostileKind, options: { timeoutMs?: number; maxResponseBytes?: number }) {
  // Nothing behind the proxy: every request is a hostile one.
  upstream = await startHostileUpstream('http://127.0.0.1:9', () => true, hostile);
  return createTransport({
    baseUrl: upstream.url,
    tokenProvider: staticTokenProvider('t0ken-for-bounded-answers'),
    timeoutMs: options.timeoutMs ?? 10_000,
    ...(options.maxResponseBytes !== undefined ? { maxResponseBytes: options.maxResponseBytes } : {}),
    retry: { retries: 4, minTimeoutMs: 1, maxTimeoutMs: 5 },
  });
}

const shipments = { operation: 'GET Shipments/Updates' as const };

describe('answer bounds', () => {
  it('reads an answer under the bound as before', async () => {
    const send = await transportTo({ kind: 'huge', bytes: 200_000 }, { maxResponseBytes: MiB });
    const answer = await send(shipments);
    expect(Array.isArray(answer.payload)).toBe(true);
    expect((answer.payload as unknown[]).length).toBeGreaterThan(100);
  });

  it('abandons a 300 MB answer at the bound, once, as too large (no retry), naming the setting', async () => {
    const send = await transportTo({ kind: 'huge', bytes: 300 * MiB }, { maxResponseBytes: 4 * MiB });
    const error = await send(shipments).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnswerTooLargeError);
    expect((error as Error).message).toMatch(/FULFILLMENT_MAX_RESPONSE_BYTES=4194304/);
    expect(upstream?.hostileCalls).toHaveLength(1);
  });

  it('counts what a gzip body inflates to: a bomb of several GiB stops at the bound', async () => {
    const send = await transportTo(
      { kind: 'gzip-bomb', bytes: 4 * 1024 * MiB },
      { maxResponseBytes: 8 * MiB },
    );
    const before = process.memoryUsage().rss;
    const error = await send(shipments).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AnswerTooLargeError);
    expect(process.memoryUsage().rss - before).toBeLessThan(200 * MiB);
  });

  it('gives up on a trickled body after two timeouts, not five', async () => {
    const send = await transportTo({ kind: 'trickle', bytesPerSecond: 10 }, { timeoutMs: 400 });
    const error = await send(shipments).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamTimeoutError);
    expect(upstream?.hostileCalls).toHaveLength(2);
  });

  it('abandons a token answer of 300 MB at 1 MiB', async () => {
    upstream = await startHostileUpstream('http://127.0.0.1:9', () => true, {
      kind: 'huge',
      bytes: 300 * MiB,
    });
    const tokens = clientCredentialsTokenProvider({
      tokenUrl: `${upstream.url}/oauth/token`,
      clientId: 'id',
      clientSecret: 'client-secret-value',
    });
    const error = await tokens.getToken().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NonRetryableUpstreamError);
    expect((error as Error).message).toMatch(/larger than 1048576 bytes/);
  });
});
