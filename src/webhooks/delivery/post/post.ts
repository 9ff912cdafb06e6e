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

/** Idle kept-alive connections close after this (under the 5 s most servers keep them). */
const IDLE_SOCKET_MS = 4_000;

/** A reused connection that the receiver had closed meanwhile fails with one of these, before any answer. */
const STALE_SOCKET_CODES = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

/**
 * One HTTP(S) POST with node:http, so new connections use `lookup` (fetch offers no such hook).
 * Never follows redirects; reads at most MAX_RESPONSE_BYTES of the answer. Connections are kept
 * alive in `agents` (one per policy and resolver, see keepAliveAgents): a kept connection goes to
 * an address that `lookup` checked when it was opened, so reusing it reaches nothing the policy
 * refuses, and a fresh TCP (and TLS) handshake per delivery was most of a local delivery's cost.
 * A kept connection that the receiver closed as it was reused is retried once on a new one: the
 * receiver answered nothing, and a repeat carries the same webhook-id.
 */
export async function postOnce(request: PostRequest, agents?: Agents): Promise<PostResponse> {
  const signal = AbortSignal.timeout(request.timeoutMs);
  try {
    return await postOn(request, signal, agents);
  } catch (error) {
    if (!(error instanceof StaleSocketError) || signal.aborted) throw unwrap(error, signal);
    return postOn(request, signal, undefined).catch((again: unknown) => {
      throw unwrap(again, signal);
    });
  }
}

/** Keep-alive agents for one policy and resolver. */
export interface Agents {
  http: http.Agent;
  https: https.Agent;
}

/** A reused connection failed before any answer. */
class StaleSocketError extends Error {
  override name = 'StaleSocketError';
}

function unwrap(error: unknown, signal: AbortSignal): unknown {
  const cause = error instanceof StaleSocketError ? error.cause : error;
  return signal.aborted ? new PostTimeoutError('timed out', { cause }) : cause;
}

const agentsBy = new WeakMap<object, WeakMap<object, Agents>>();

/**
 * The keep-alive agents of a policy and resolver (the same objects give the same agents): a
 * connection is only ever reused under the policy and resolver whose lookup opened it.
 */
export function keepAliveAgents(policy: object, resolve: object): Agents {
  let byResolve = agentsBy.get(policy);
  if (!byResolve) {
    byResolve = new WeakMap();
    agentsBy.set(policy, byResolve);
  }
  let agents = byResolve.get(resolve);
  if (!agents) {
    const options = { keepAlive: true, timeout: IDLE_SOCKET_MS, scheduling: 'lifo' as const };
    agents = { http: new http.Agent(options), https: new https.Agent(options) };
    byResolve.set(resolve, agents);
  }
  return agents;
}

/** One POST on `agents` (a new connection of its own when undefined). */
function postOn(
  request: PostRequest,
  signal: AbortSignal,
  agents: Agents | undefined,
): Promise<PostResponse> {
  const secure = request.url.protocol === 'https:';
  const transport = secure ? https : http;
  const agent = agents ? (secure ? agents.https : agents.http) : false;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      request.url,
      {
        method: 'POST',
        headers: { ...request.headers, 'content-length': String(Buffer.byteLength(request.body)) },
        lookup: request.lookup,
        agent,
        signal,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let size = 0;
        let settled = false;
        const finish = (drop: boolean) => {
          if (settled) return;
          settled = true;
          const body = Buffer.concat(chunks).subarray(0, MAX_RESPONSE_BYTES).toString('utf8');
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body });
          // A body read to its end leaves the connection reusable; one cut short does not.
          if (drop) response.destroy();
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.byteLength;
          if (size >= MAX_RESPONSE_BYTES) finish(true);
        });
        response.on('end', () => finish(false));
        // A body that breaks off (or times out) mid-way is still an answer: keep what arrived.
        response.on('error', () => finish(true));
        response.on('close', () => finish(true));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => {
      const stale = req.reusedSocket && !signal.aborted && STALE_SOCKET_CODES.has(error.code ?? '');
      reject(stale ? new StaleSocketError(error.message, { cause: error }) : error);
    });
    req.end(request.body);
  });
}
