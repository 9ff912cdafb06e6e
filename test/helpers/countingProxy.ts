import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A pass-through HTTP proxy that counts the requests reaching the server behind it. */
export interface CountingProxy {
  /** Base URL to give the client instead of the target's. */
  url: string;
  /** Requests forwarded so far, as `METHOD /path`. */
  requests: string[];
  /** When each API request (under /api/) arrived (epoch ms), in order: the upstream's own count. */
  arrivals: number[];
  close(): Promise<void>;
}

/** Forwards one request to `to` unchanged and streams its answer back. */
export function forwardTo(to: URL, req: IncomingMessage, res: ServerResponse): void {
  const upstream = request(
    { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    },
  );
  upstream.on('error', () => res.destroy());
  req.pipe(upstream);
}

/** Starts a proxy in front of `target` (e.g. the simulator), so a test can prove no call was made. */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const requests: string[] = [];
  const arrivals: number[] = [];
  const to = new URL(target);
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    if (req.url?.startsWith('/api/')) arrivals.push(Date.now());
    forwardTo(to, req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    arrivals,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Requests per calendar second over [from, from + seconds), one count per second. */
export function perSecond(arrivals: readonly number[], from: number, seconds: number): number[] {
  const counts = new Array<number>(seconds).fill(0);
  for (const at of arrivals) {
    const index = Math.floor(at / 1000) - Math.floor(from / 1000);
    if (index >= 0 && index < seconds) counts[index] = (counts[index] ?? 0) + 1;
  }
  return counts;
}
