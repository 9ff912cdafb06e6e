import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readBody } from './harness.ts';

/** One request a gated receiver got: its path, webhook-id and event type. */
export interface GatedRequest {
  path: string;
  webhookId: string;
  type: string;
}

/**
 * A local webhook receiver whose paths can be held: a held path keeps every request open until
 * `release(path)` answers them all at once, and answers at once after that; 200 unless
 * `answer(path, status)` says otherwise. Counts requests per path by webhook-id, so a test can tell
 * a repeated delivery from a new one.
 */
export async function startGatedReceiver(): Promise<{
  url: (path: string) => string;
  hold: (path: string) => void;
  answer: (path: string, status: number) => void;
  release: (path: string) => void;
  /** Requests of a path held open right now. */
  waiting: (path: string) => number;
  received: (path: string) => GatedRequest[];
  /** Webhook-ids that path received more than once. */
  repeated: (path: string) => string[];
  close: () => Promise<void>;
}> {
  const held = new Map<string, ServerResponse[]>();
  const statuses = new Map<string, number>();
  const reply = (path: string, res: ServerResponse) => res.writeHead(statuses.get(path) ?? 200).end('ok');
  const log: GatedRequest[] = [];
  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = req.url ?? '/';
    let type = '';
    try {
      type = String((JSON.parse(body) as { type?: unknown }).type ?? '');
    } catch {
      type = '';
    }
    log.push({ path, webhookId: String(req.headers['webhook-id'] ?? ''), type });
    const queue = held.get(path);
    if (queue) queue.push(res);
    else reply(path, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const received = (path: string) => log.filter((r) => r.path === path);
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    hold: (path) => {
      if (!held.has(path)) held.set(path, []);
    },
    release: (path) => {
      const queue = held.get(path) ?? [];
      held.delete(path);
      for (const res of queue) reply(path, res);
    },
    answer: (path, status) => statuses.set(path, status),
    waiting: (path) => held.get(path)?.length ?? 0,
    received,
    repeated: (path) => {
      const seen = new Map<string, number>();
      for (const r of received(path)) seen.set(r.webhookId, (seen.get(r.webhookId) ?? 0) + 1);
      return [...seen].filter(([, n]) => n > 1).map(([id]) => id);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
