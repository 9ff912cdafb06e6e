import { parseRetryAfter } from '../http/retryAfter.ts';
import { signDelivery } from './sign.ts';

/** Receivers get this long to answer. */
export const DELIVERY_TIMEOUT_MS = 15_000;
/** Response bodies are stored up to this many bytes. */
export const MAX_RESPONSE_BYTES = 2048;

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** What one HTTP attempt gave; never throws for receiver failures. */
export interface AttemptResult {
  ok: boolean;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  responseBody: string | null;
  retryAfterMs: number | undefined;
}

export interface AttemptInput {
  url: string;
  secret: string;
  msgId: string;
  body: string;
  fetch?: FetchLike;
  now?: () => Date;
  timeoutMs?: number;
}

/**
 * One signed POST of an event body. Success is a 2xx only; redirects are not followed (a 3xx is a
 * failure), the body read is capped, and the secret never appears in the result.
 */
export async function attemptDelivery(input: AttemptInput): Promise<AttemptResult> {
  const now = input.now ?? (() => new Date());
  const doFetch = input.fetch ?? fetch;
  const started = performance.now();
  const headers = {
    'content-type': 'application/json',
    'user-agent': 'fulfillment-sync-webhooks/1',
    ...signDelivery(input.secret, input.msgId, now(), input.body),
  };
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await doFetch(input.url, {
      method: 'POST',
      headers,
      body: input.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(input.timeoutMs ?? DELIVERY_TIMEOUT_MS),
    });
    const responseBody = await readCapped(response);
    const ok = response.status >= 200 && response.status < 300;
    return {
      ok,
      statusCode: response.status,
      durationMs: elapsed(),
      error: ok ? null : `receiver answered HTTP ${response.status}`,
      responseBody,
      retryAfterMs: parseRetryAfter(response.headers.get('retry-after'), now().getTime()),
    };
  } catch (cause) {
    const timedOut = cause instanceof Error && (cause.name === 'TimeoutError' || cause.name === 'AbortError');
    return {
      ok: false,
      statusCode: null,
      durationMs: elapsed(),
      error: timedOut ? 'timed out' : `request failed: ${errorText(cause)}`,
      responseBody: null,
      retryAfterMs: undefined,
    };
  }
}

/** The first MAX_RESPONSE_BYTES of the body; the rest is cancelled, not read. */
async function readCapped(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_RESPONSE_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } catch {
    // A body that breaks off mid-way is still a response; keep what arrived.
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  const bytes = Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES);
  return bytes.toString('utf8');
}

function errorText(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = cause.cause instanceof Error ? `: ${cause.cause.message}` : '';
  return `${cause.message}${inner}`;
}
