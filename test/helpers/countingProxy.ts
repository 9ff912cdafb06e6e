import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A pass-through HTTP proxy that counts the requests reaching the server behind it. */
export interface CountingProxy {
  /** Base URL to give the client instead of the target's. */
  url: string;
  /** Requests forwarded so far, as `METHOD /path`. */
  requests: string[];
  close(): Promise<void>;
}

/** Starts a proxy in front of `target` (e.g. the simulator), so a test can prove no call was made. */
export async function startCountingProxy(target: string): Promise<CountingProxy> {
  const requests: string[] = [];
  const to = new URL(target);
  const server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
