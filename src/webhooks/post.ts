import http, { type IncomingHttpHeaders } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/** Response bodies are read (and stored) up to this many bytes; the rest is never read. */
export const MAX_RESPONSE_BYTES = 2048;

/** One POST to send. */
export interface PostRequest {
  url: URL;
  headers: Readonly<Record<string, string>>;
  body: string;
  timeoutMs: number;
  /** Resolves (and checks) the host; the socket connects to what it answers. */
  lookup: LookupFunction;
}

/** What the receiver answered. */
export interface PostResponse {
  status: number;
  headers: IncomingHttpHeaders;
  /** The first MAX_RESPONSE_BYTES of the body. */
  body: string;
}

/** The request did not complete within its time. */
export class PostTimeoutError extends Error {
  override name = 'PostTimeoutError';
}

/**
 * One HTTP(S) POST with node:http, so the connection uses `lookup` (fetch offers no such hook).
 * Never follows redirects; reads at most MAX_RESPONSE_BYTES of the answer; one fresh connection
 * per request (no pooled socket outlives the check its lookup made).
 */
export function postOnce(request: PostRequest): Promise<PostResponse> {
  const transport = request.url.protocol === 'https:' ? https : http;
  const signal = AbortSignal.timeout(request.timeoutMs);
  return new Promise((resolve, reject) => {
    const req = transport.request(
      request.url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        lookup: request.lookup,
        agent: false,
        signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let settled = false;
        const finish = () => {
          if (settled) return;
          settled = true;
          const body = Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
          response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.byteLength;
          if (size >= MAX_RESPONSE_BYTES) finish();
        });
        response.on('end', finish);
        // A body that breaks off (or times out) mid-way is still an answer: keep what arrived.
        response.on('error', finish);
        response.on('close', finish);
      },
    );
    req.on('error', (error) => {
      reject(signal.aborted ? new PostTimeoutError('timed out', { cause: error }) : error);
    });
    req.end(request.body);
  });
}
