import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the server saw of one request. */
export interface RecordedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  /** Query names in the order sent, for "no other parameters" assertions. */
  queryNames: string[];
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json: unknown;
  at: number;
}

/** A scripted answer. `hang` never answers; `destroy` drops the connection without an answer. */
export type Scripted =
  | { status?: number; body?: unknown; rawBody?: string; headers?: Record<string, string> }
  | { hang: true }
  | { destroy: true };

export type Responder = (request: RecordedRequest) => Scripted;

export interface RecordingServer {
  url: string;
  requests: RecordedRequest[];
  /** Queues answers, used in order; when the queue is empty the fallback answers. */
  reply(...answers: Scripted[]): void;
  /** Forgets recorded requests and unused scripted answers (between tests). */
  reset(): void;
  /** Sets the answer used when the queue is empty (default: a successful envelope with `[]`). */
  fallback(responder: Responder): void;
  close(): Promise<void>;
}

/** A successful envelope. */
export const ok = (payload: unknown): Scripted => ({ body: { isSuccess: true, message: null, payload } });

/** Starts a node:http server on a free port that records every request and answers as scripted. */
export async function startRecordingServer(): Promise<RecordingServer> {
  const requests: RecordedRequest[] = [];
  const queue: Scripted[] = [];
  let fallback: Responder = () => ok([]);

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://localhost');
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      queryNames: [...url.searchParams.keys()],
      headers: req.headers,
      body,
      json: body ? safeJson(body) : undefined,
      at: Date.now(),
    };
    requests.push(recorded);
    const answer = queue.shift() ?? fallback(recorded);
    if ('hang' in answer) return;
    if ('destroy' in answer) {
      req.socket.destroy();
      return;
    }
    const text =
      answer.rawBody ?? JSON.stringify(answer.body ?? { isSuccess: true, message: null, payload: [] });
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', ...answer.headers });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (...answers) => queue.push(...answers),
    reset: () => {
      requests.length = 0;
      queue.length = 0;
      fallback = () => ok([]);
    },
    fallback: (responder) => {
      fallback = responder;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
