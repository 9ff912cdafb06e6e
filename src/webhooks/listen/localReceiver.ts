import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/**
 * The receiver of `webhooks listen`: a local HTTP server that checks each request's Standard
 * Webhooks signature (webhook-id, webhook-timestamp within 5 minutes, webhook-signature) with the
 * reference library, as a receiver in production should, answers 200 to a verified delivery and
 * 401 to any other, and reports each one.
 */

/** Largest body read; a bigger one is answered 413 unread. */
export const MAX_LISTEN_BODY_BYTES = 1024 * 1024;

/** One request as the receiver saw it. */
export interface ReceivedDelivery {
  receivedAt: Date;
  /** The webhook-id header (the event id); null when absent. */
  webhookId: string | null;
  /** The body's `type`, when it is JSON with one. */
  type: string | null;
  verified: boolean;
  /** Why it was not verified (or not read). */
  problem: string | null;
  /** What the receiver answered. */
  status: number;
  body: string;
}

/** A bad `--secret`: not a `whsec_` secret. */
export class ListenSecretError extends Error {
  override name = 'ListenSecretError';
}

/** A verifier for a `whsec_...` secret; throws ListenSecretError when it is not one. */
export function verifierFor(secret: string): Webhook {
  if (!secret.startsWith('whsec_')) {
    throw new ListenSecretError(
      '--secret: not a signing secret (whsec_ followed by base64, as `webhooks add` prints it).',
    );
  }
  try {
    return new Webhook(secret);
  } catch {
    throw new ListenSecretError(
      '--secret: not a signing secret (whsec_ followed by base64, as `webhooks add` prints it).',
    );
  }
}

export interface LocalReceiver {
  /** The URL to point an endpoint at: http://host:port/ */
  url: string;
  close(): Promise<void>;
}

/**
 * Starts the receiver on `host:port` (port 0: any free one). `verifier` is read at every request
 * (`webhooks listen` learns its secret only after the port is known).
 */
export async function startLocalReceiver(options: {
  host: string;
  port: number;
  verifier: () => Webhook | undefined;
  onDelivery: (delivery: ReceivedDelivery) => void;
}): Promise<LocalReceiver> {
  const server = createServer((request, response) => {
    // A request that breaks off while its body is read gets no answer: there is no one to read it.
    receive(request, response, options).catch(() => response.destroy());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function receive(
  request: IncomingMessage,
  response: ServerResponse,
  options: { verifier: () => Webhook | undefined; onDelivery: (delivery: ReceivedDelivery) => void },
): Promise<void> {
  const receivedAt = new Date();
  const header = (name: string) => {
    const value = request.headers[name];
    return typeof value === 'string' ? value : null;
  };
  const answer = (status: number, body: string, seen: { body: string; problem: string | null }) => {
    response.writeHead(status, { 'content-type': 'application/json' }).end(body);
    options.onDelivery({
      receivedAt,
      webhookId: header('webhook-id'),
      type: typeOf(seen.body),
      verified: status < 300,
      problem: seen.problem,
      status,
      body: seen.body,
    });
  };
  if (request.method !== 'POST') {
    return answer(405, '{"error":"POST only"}', { body: '', problem: `${request.method} is not a delivery` });
  }
  const body = await readCapped(request);
  if (body === undefined) {
    return answer(413, '{"error":"body too large"}', { body: '', problem: 'body over 1 MiB, not read' });
  }
  const verifier = options.verifier();
  const problem = verifier ? verificationProblem(verifier, body, request) : 'no secret to verify with yet';
  if (problem) return answer(401, JSON.stringify({ error: problem }), { body, problem });
  return answer(200, '{"received":true}', { body, problem: null });
}

/** Why a request's signature does not verify (the reference library's words), or null when it does. */
function verificationProblem(verifier: Webhook, body: string, request: IncomingMessage): string | null {
  const headers: Record<string, string> = {};
  for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
    const value = request.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  try {
    verifier.verify(body, headers);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/** The body as text, or undefined when it is over MAX_LISTEN_BODY_BYTES (the rest is not read). */
function readCapped(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size > MAX_LISTEN_BODY_BYTES) {
        request.removeAllListeners('data');
        request.resume();
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function typeOf(body: string): string | null {
  try {
    const parsed = JSON.parse(body) as unknown;
    const type = parsed && typeof parsed === 'object' ? (parsed as { type?: unknown }).type : undefined;
    return typeof type === 'string' ? type : null;
  } catch {
    return null;
  }
}
