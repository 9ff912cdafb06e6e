import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type pg from 'pg';
import { Webhook } from 'standardwebhooks';
import type { DerivedEvent } from '../../src/events/types.ts';
import { createTestDatabase as createClonedDatabase } from '../helpers/db.ts';

/** A database of this test file's own (cloned from the migrated template); `drop` removes it. */
export async function createTestDatabase(): Promise<{
  url: string;
  pool: pg.Pool;
  drop: () => Promise<void>;
}> {
  const database = await createClonedDatabase();
  return { url: database.url, pool: database.pool, drop: database.close };
}

/** One request the receiver got, with the verification verdict of the reference library. */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  verified: boolean;
  /** When the request arrived (Date.now()). */
  receivedAt: number;
}

/** What the receiver answers for a path: status, headers, body. */
export type Responder = (
  request: Received,
  count: number,
) => { status: number; headers?: Record<string, string>; body?: string };

/**
 * A local webhook receiver on port 0. Every request is verified with `standardwebhooks`
 * Webhook.verify against the secret registered for its path.
 */
export async function startReceiver(): Promise<{
  url: (path: string) => string;
  on: (path: string, secret: string, responder: Responder) => void;
  received: (path: string) => Received[];
  close: () => Promise<void>;
}> {
  const routes = new Map<string, { secret: string; responder: Responder }>();
  const log: Received[] = [];
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const receivedAt = Date.now();
    const path = req.url ?? '/';
    const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
    const route = routes.get(path);
    let verified = false;
    if (route) {
      try {
        new Webhook(route.secret).verify(body, headers);
        verified = true;
      } catch {
        verified = false;
      }
    }
    const entry = { path, headers, body, verified, receivedAt };
    log.push(entry);
    const count = log.filter((r) => r.path === path).length;
    const answer = route ? route.responder(entry, count) : { status: 404 };
    // Status 0: never answer (a receiver that hangs); the connection is closed with the server.
    if (answer.status === 0) return;
    res.writeHead(answer.status, answer.headers ?? {});
    res.end(answer.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    on: (path, secret, responder) => routes.set(path, { secret, responder }),
    received: (path) => log.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A request's whole body, as text. */
export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

let counter = 0;
/** A distinct test event. */
export function testEvent(overrides: Partial<DerivedEvent> = {}): DerivedEvent {
  counter += 1;
  const id = `evt_test_${Date.now().toString(36)}_${counter}`;
  return {
    id,
    type: 'shipment.delivered',
    occurredAt: '2026-03-01T10:00:00.000Z',
    detectedAt: '2026-03-01T10:05:00.000Z',
    subject: { kind: 'shipment', key: `C${counter}` },
    data: {
      current: { header: { containerId: `C${counter}`, statusCode: 'DELIVERED' } },
      previous: null,
      changes: [],
    },
    ...overrides,
  };
}

/**
 * The receivers of these tests listen on 127.0.0.1, a target production refuses: tests of delivery
 * allow private targets, as WEBHOOK_ALLOW_PRIVATE_TARGETS=true does.
 */
export const LOCAL_RECEIVERS = { policy: { allowPrivateTargets: true } } as const;
