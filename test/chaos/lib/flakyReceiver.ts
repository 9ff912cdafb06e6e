import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** How the receiver answered one request. */
export type Answer = 'ok' | 'error' | 'hang';

/** One request the receiver got. */
export interface ReceivedRequest {
  webhookId: string;
  /** The `id` of the event in the body ('' when the body is not an event). */
  eventId: string;
  /** Whether `standardwebhooks` verified it with the endpoint's secret. */
  signatureValid: boolean;
  answer: Answer;
  at: number;
}

export interface FlakyReceiverOptions {
  /** Share of requests answered 500 (0..1). */
  errorRate: number;
  /** Share of requests never answered, so the sender's timeout fires (0..1). */
  hangRate: number;
  /**
   * After this many failed answers in a row for one webhook-id the next one succeeds: a flaky
   * receiver that is not dead. The sender's schedule allows more attempts than this, so an event
   * that is never answered 2xx is the sender's loss, not the receiver's luck.
   */
  maxFailuresInARow: number;
  /** Seed of the answers' random choices, so a run can be repeated. */
  seed: number;
}

/** A local webhook receiver that fails on purpose and records every request. */
export interface FlakyReceiver {
  url: string;
  /** The endpoint's secret, known once the endpoint is registered (signatures are checked with it). */
  setSecret(secret: string): void;
  requests: readonly ReceivedRequest[];
  close(): Promise<void>;
}

/** mulberry32: a small seeded generator, so the answers of a run can be reproduced. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function eventIdOf(body: string): string {
  try {
    const parsed = JSON.parse(body) as { id?: unknown };
    return typeof parsed.id === 'string' ? parsed.id : '';
  } catch {
    return '';
  }
}

/** Starts the receiver on 127.0.0.1, on a port of its own. */
export async function startFlakyReceiver(options: FlakyReceiverOptions): Promise<FlakyReceiver> {
  const random = seededRandom(options.seed);
  const requests: ReceivedRequest[] = [];
  const failuresInARow = new Map<string, number>();
  let secret: string | undefined;

  const choose = (webhookId: string): Answer => {
    if ((failuresInARow.get(webhookId) ?? 0) >= options.maxFailuresInARow) return 'ok';
    const roll = random();
    if (roll < options.hangRate) return 'hang';
    if (roll < options.hangRate + options.errorRate) return 'error';
    return 'ok';
  };

  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    const webhookId = headers['webhook-id'] ?? '';
    let signatureValid = false;
    if (secret) {
      try {
        new Webhook(secret).verify(body, headers);
        signatureValid = true;
      } catch {
        signatureValid = false;
      }
    }
    const answer = choose(webhookId);
    failuresInARow.set(webhookId, answer === 'ok' ? 0 : (failuresInARow.get(webhookId) ?? 0) + 1);
    requests.push({ webhookId, eventId: eventIdOf(body), signatureValid, answer, at: Date.now() });
    // A hang: never answer; the sender's timeout ends the request (the socket closes with the server).
    if (answer === 'hang') return;
    res.writeHead(answer === 'ok' ? 200 : 500, { 'content-type': 'text/plain' });
    res.end(answer === 'ok' ? 'ok' : 'flaky');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    setSecret: (s) => {
      secret = s;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
