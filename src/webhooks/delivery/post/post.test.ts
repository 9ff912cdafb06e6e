import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { safeLookup } from '../../endpoints/safeLookup.ts';
import { keepAliveAgents, postOnce } from './post.ts';

const policy = { allowPrivateTargets: true };
let server: Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
});

/** A receiver answering 204; `onRequest` sees each request's number on its connection (1-based). */
async function receiver(onRequest: (socket: Socket, nth: number) => boolean): Promise<URL> {
  const counts = new WeakMap<Socket, number>();
  const listening = createServer((req, res) => {
    const nth = (counts.get(req.socket) ?? 0) + 1;
    counts.set(req.socket, nth);
    req.resume();
    if (!onRequest(req.socket, nth)) return;
    req.on('end', () => res.writeHead(204).end());
  });
  server = listening;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  return new URL(`http://127.0.0.1:${(listening.address() as AddressInfo).port}/hook`);
}

const post = (url: URL, resolve: object) =>
  postOnce(
    { url, headers: {}, body: '{}', timeoutMs: 5000, lookup: safeLookup(policy) },
    keepAliveAgents(policy, resolve),
  );

describe('postOnce', () => {
  it('sends one delivery after another on one kept-alive connection', async () => {
    const sockets = new Set<Socket>();
    const url = await receiver((socket) => {
      sockets.add(socket);
      return true;
    });
    const agentsKey = {};
    for (let i = 0; i < 3; i++) expect((await post(url, agentsKey)).status).toBe(204);
    expect(sockets.size).toBe(1);
  });

  it('retries once on a new connection when a kept one was closed as it was reused', async () => {
    // The receiver drops every connection at its second request, answering nothing.
    const url = await receiver((socket, nth) => {
      if (nth === 1) return true;
      socket.destroy();
      return false;
    });
    const agentsKey = {};
    expect((await post(url, agentsKey)).status).toBe(204);
    expect((await post(url, agentsKey)).status).toBe(204);
  });
});
