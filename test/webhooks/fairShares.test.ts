import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import { startWebhookDelivery } from '../../src/webhooks/delivery/runtime.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { createTestDatabase, LOCAL_RECEIVERS, testEvent } from './harness.ts';

/**
 * WEBHOOK_MAX_IN_FLIGHT, the process's cap over all endpoints, is shared fairly among the
 * endpoints that have work: equal endpoints with equal backlogs get equal shares, whatever order
 * the claim happens to meet them in.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
});

/** Most / fewest deliveries among the endpoints, when they had received TOTAL between them. */
const MAX_SHARE_RATIO = 1.5;
const TOTAL = 240;

describe('the process cap among endpoints', () => {
  it('three equal endpoints with equal backlogs at a cap of 5 get equal shares', async () => {
    const counts = new Map<string, number>();
    // Each answer takes a moment, so the cap, not the receivers, sets how many are in flight.
    const server = createServer((req, res) => {
      counts.set(req.url ?? '', (counts.get(req.url ?? '') ?? 0) + 1);
      req.resume();
      setTimeout(() => res.writeHead(200).end(), 15);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const paths = ['/a', '/b', '/c'];
    for (const path of paths) {
      await addEndpoint(database.pool, { url: `http://127.0.0.1:${port}${path}` }, LOCAL_RECEIVERS);
    }
    // The backlog is there before the worker starts: 300 events, each owed to all three.
    const events = Array.from({ length: 300 }, () => testEvent());
    await writeEvents(database.pool, events, { stream: 'shipments', scope: 'ACC1', suppressed: false });
    const delivery = await startWebhookDelivery({
      ...LOCAL_RECEIVERS,
      pool: database.pool,
      databaseUrl: database.url,
      maxInFlight: 5,
      relayIntervalMs: 100,
    });
    try {
      const total = () => paths.reduce((sum, path) => sum + (counts.get(path) ?? 0), 0);
      await waitFor(`${TOTAL} deliveries between them`, () => total() >= TOTAL, 50_000, 5);
      const shares = paths.map((path) => counts.get(path) ?? 0);
      const ratio = Math.max(...shares) / Math.max(1, Math.min(...shares));
      expect({ shares, fair: ratio <= MAX_SHARE_RATIO }).toEqual({ shares, fair: true });
    } finally {
      await delivery.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
