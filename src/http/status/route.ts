import { Hono } from 'hono';
import { compress } from 'hono/compress';
import type { StatusSnapshot } from './readModel.ts';
import { statusPage, unavailablePage } from './views.ts';

/** The path of the status page on the worker's HTTP port (behind the dashboard's basic auth). */
export const STATUS_PATH = '/status';

/**
 * GET /status: reads a snapshot and renders it. Never cached (it is what is true now); a read that
 * fails (Postgres away) answers 503 with a page that says so and retries.
 */
export function statusRoutes(read: () => Promise<StatusSnapshot>, links: { queues?: string } = {}): Hono {
  const routes = new Hono();
  // A row per stream and scope: 100 pairs make half a megabyte of markup, 15 kB of it gzipped.
  routes.use(compress());
  routes.get('/', async (c) => {
    c.header('cache-control', 'no-store');
    let snapshot: StatusSnapshot;
    try {
      snapshot = await read();
    } catch {
      return c.html(unavailablePage(), 503);
    }
    return c.html(statusPage(snapshot, links));
  });
  return routes;
}
