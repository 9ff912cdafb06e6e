import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { Window } from '../../src/sync/types.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { shipmentHeader } from '../helpers/shipmentRecords.ts';

/**
 * A run has a deadline (FULFILLMENT_RUN_DEADLINE_MS): past it, no further window is fetched, the
 * run fails naming the setting, and what it stored stays with the cursor over it.
 */

const logger = pino({ level: 'silent' });
const HOUR = 3_600_000;
const start = new Date('2026-06-01T08:00:00Z');
const hours: Window[] = Array.from({ length: 6 }, (_, i) => ({
  kind: 'minute',
  start: new Date(start.getTime() + i * HOUR),
  end: new Date(start.getTime() + (i + 1) * HOUR),
  advanceTo: new Date(start.getTime() + (i + 1) * HOUR),
}));

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.close());

describe('run deadline', () => {
  it('stops fetching once the deadline passed and keeps what it stored', async () => {
    let calls = 0;
    // The deadline is generous against a loaded machine (the first two windows must be stored
    // within it), and the third answer is held until well past it.
    const deadlineMs = 3000;
    let heldThird: Promise<void> = Promise.resolve();
    const client = {
      listShipmentUpdates: async (q: { beginDate: string }) => {
        calls += 1;
        if (calls === 1) heldThird = new Promise((resolve) => setTimeout(resolve, deadlineMs + 500));
        if (calls === 3) await heldThird;
        return {
          records: [{ header: shipmentHeader(`C-${q.beginDate}`), lineItems: [], events: [] }],
          rejected: [],
        };
      },
    } as unknown as FulfillmentClient;
    const config = loadConfig({ DATABASE_URL: t.url, FULFILLMENT_RUN_DEADLINE_MS: String(deadlineMs) });
    const result = await runStream({
      pool: t.pool,
      client,
      config,
      logger,
      stream: shipmentsStream,
      scope: { kind: 'account', id: 'ACCD' },
      windows: hours,
      now: hours.at(-1)!.end,
    });
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(/FULFILLMENT_RUN_DEADLINE_MS/);
    expect(calls).toBe(3);
    const stored = await t.pool.query('SELECT count(*)::int AS n FROM fulfillment.shipments');
    expect(stored.rows[0].n).toBe(3);
    const cursor = await t.pool.query("SELECT position_at FROM sync.cursors WHERE stream = 'shipments'");
    expect(cursor.rows[0].position_at).toEqual(hours[2]!.end);
  });
});
