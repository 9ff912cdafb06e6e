import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A scripted upstream: a proxy in front of the simulator that passes every call through and lets a
 * test rewrite the JSON answer of the calls it picks (an empty payload, half of it, an
 * `isSuccess: false`), the way a lagging replica, a cold cache or a deploy answers. The client under
 * test is the real one, so the answer goes through the production classification and validation.
 */

/** Rewrites one answer: `url` is the request's, `body` the simulator's parsed answer; undefined keeps it. */
export type Rewrite = (url: URL, body: unknown) => unknown;

export interface RewritingProxy {
  url: string;
  /** The API calls forwarded so far (`/api/v1/...?query`), rewritten or not. */
  calls: string[];
  /** The calls whose answer was rewritten. */
  rewritten: string[];
  /** The current script; undefined passes everything through. */
  rewrite: Rewrite | undefined;
  /**
   * Answers the calls it picks with this HTTP status (a 503 from a deploy, a gateway timeout) and a
   * plain body, without asking the simulator; undefined passes the call on.
   */
  failWith: ((url: URL) => number | undefined) | undefined;
  close(): Promise<void>;
}

/** Starts the proxy in front of `target` (e.g. the simulator's URL). */
export async function startRewritingProxy(target: string): Promise<RewritingProxy> {
  const to = new URL(target);
  const proxy: RewritingProxy = {
    url: '',
    calls: [],
    rewritten: [],
    rewrite: undefined,
    failWith: undefined,
    close: async () => undefined,
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://proxy');
    if (url.pathname.startsWith('/api/')) proxy.calls.push(`${url.pathname}${url.search}`);
    const status = url.pathname.startsWith('/api/') ? proxy.failWith?.(url) : undefined;
    if (status !== undefined) {
      req.resume();
      res.writeHead(status, { 'content-type': 'text/plain' });
      res.end(`HTTP ${status} from the scripted upstream`);
      return;
    }
    // Plain bodies only, so an answer can be read and rewritten.
    const headers = { ...req.headers };
    delete headers['accept-encoding'];
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          const script = proxy.rewrite;
          if (script && url.pathname.startsWith('/api/')) {
            const replaced = script(url, JSON.parse(body.toString('utf8')));
            if (replaced !== undefined) {
              proxy.rewritten.push(`${url.pathname}${url.search}`);
              body = Buffer.from(JSON.stringify(replaced));
            }
          }
          const out = { ...answer.headers, 'content-length': String(body.length) };
          delete out['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, out);
          res.end(body);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  proxy.url = `http://127.0.0.1:${port}`;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return proxy;
}

/** A script that applies `change` to the first `times` calls `picks` matches, then passes through. */
export function rewriteTimes(
  times: number,
  picks: (url: URL) => boolean,
  change: (body: { isSuccess: boolean; message: unknown; payload: unknown }) => unknown,
): Rewrite {
  let left = times;
  return (url, body) => {
    if (left <= 0 || !picks(url)) return undefined;
    left -= 1;
    return change(body as { isSuccess: boolean; message: unknown; payload: unknown });
  };
}
