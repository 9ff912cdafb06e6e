import { type ServerType, serve } from '@hono/node-server';

/** A listening HTTP server and how to stop it. */
export interface HttpServer {
  port: number;
  close: () => Promise<void>;
}

/** What the server calls per request: a hono app, or anything with its `fetch`. */
export interface FetchHandler {
  fetch: (request: Request) => Response | Promise<Response>;
}

/** Serves the app on `port` (0 picks a free one) and resolves once it listens; rejects if it cannot. */
export function startHttpServer(app: FetchHandler, port: number): Promise<HttpServer> {
  return new Promise((resolve, reject) => {
    let server: ServerType | undefined;
    try {
      server = serve({ fetch: app.fetch, port }, (info) => {
        resolve({
          port: info.port,
          close: () => new Promise<void>((done) => (server ? server.close(() => done()) : done())),
        });
      });
      server.once('error', reject);
    } catch (error) {
      reject(error);
    }
  });
}
