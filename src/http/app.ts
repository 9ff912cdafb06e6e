import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { HonoAdapter } from '@bull-board/hono';
import { serveStatic } from '@hono/node-server/serve-static';
import type { Queue } from 'bullmq';
import { Hono } from 'hono';
import { basicAuth } from 'hono/basic-auth';
import type { Registry } from 'prom-client';
import { metricsRegistry } from './metrics.ts';
import type { StatusSnapshot } from './status/readModel.ts';
import { STATUS_PATH, statusRoutes } from './status/route.ts';

/** One readiness dependency: resolves when healthy, rejects (or returns false) when not. */
export type ReadinessCheck = () => Promise<boolean | undefined> | boolean | undefined;

/** What the HTTP app needs; everything is injected so tests build it in-process. */
export interface HttpAppOptions {
  /** Named readiness checks, e.g. postgres, redis, schedules. */
  readiness: Readonly<Record<string, ReadinessCheck>>;
  /** Queues shown on the dashboard. */
  queues?: readonly Queue[];
  dashboard?: { user: string | undefined; password: string | undefined };
  registry?: Registry;
  /** Reads the status page's snapshot; the page is served at /status behind the dashboard's credentials. */
  status?: () => Promise<StatusSnapshot>;
  /** Per check; a hanging dependency must not hang the probe. */
  checkTimeoutMs?: number;
}

export const DASHBOARD_PATH = '/admin/queues';

/**
 * Builds the hono app: /healthz, /readyz, /metrics and, when credentials are set, the dashboard and
 * the status page (both behind the same basic auth).
 */
export function createHttpApp(options: HttpAppOptions): Hono {
  const app = new Hono();
  const registry = options.registry ?? metricsRegistry;

  app.get('/healthz', (c) => c.json({ status: 'ok' }));

  app.get('/readyz', async (c) => {
    const entries = await Promise.all(
      Object.entries(options.readiness).map(
        async ([name, check]) => [name, await runCheck(check, options.checkTimeoutMs ?? 2000)] as const,
      ),
    );
    const checks = Object.fromEntries(entries);
    const ready = entries.every(([, ok]) => ok === 'ok');
    return c.json({ status: ready ? 'ready' : 'not ready', checks }, ready ? 200 : 503);
  });

  app.get('/metrics', async (c) => {
    const body = await registry.metrics();
    return c.body(body, 200, { 'content-type': registry.contentType });
  });

  const { user, password } = options.dashboard ?? {};
  if (user && password) {
    app.use(`${DASHBOARD_PATH}/*`, basicAuth({ username: user, password }));
    app.use(DASHBOARD_PATH, basicAuth({ username: user, password }));
    app.route(DASHBOARD_PATH, dashboardRoutes(options.queues ?? []));
  }
  if (options.status) mountStatusPage(app, options.status, user && password ? { user, password } : undefined);
  return app;
}

/** /status behind the dashboard's credentials; without them it is not served, and says why. */
function mountStatusPage(
  app: Hono,
  read: () => Promise<StatusSnapshot>,
  credentials: { user: string; password: string } | undefined,
): void {
  if (!credentials) {
    app.get(STATUS_PATH, (c) =>
      c.text('The status page is off: set DASHBOARD_USER and DASHBOARD_PASSWORD to serve it.\n', 404),
    );
    return;
  }
  const auth = basicAuth({ username: credentials.user, password: credentials.password });
  app.use(STATUS_PATH, auth);
  app.use(`${STATUS_PATH}/*`, auth);
  app.route(STATUS_PATH, statusRoutes(read, { queues: `${DASHBOARD_PATH}/` }));
}

async function runCheck(check: ReadinessCheck, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs} ms`), timeoutMs);
  });
  try {
    const result = Promise.resolve()
      .then(check)
      .then((ok) => (ok === false ? 'not ready' : 'ok'))
      .catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
    return await Promise.race([result, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function dashboardRoutes(queues: readonly Queue[]): Hono {
  const serverAdapter = new HonoAdapter(serveStatic);
  serverAdapter.setBasePath(DASHBOARD_PATH);
  createBullBoard({
    queues: queues.map((q) => new BullMQAdapter(q, { readOnlyMode: false })),
    // @bull-board/hono pins its own copy of @bull-board/api one patch behind ours; the shapes match at
    // runtime (the dashboard test proves it), only their private fields differ for the type checker.
    serverAdapter: serverAdapter as unknown as Parameters<typeof createBullBoard>[0]['serverAdapter'],
  });
  return serverAdapter.registerPlugin();
}
