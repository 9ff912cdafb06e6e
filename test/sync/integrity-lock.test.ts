import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { ShipmentUpdate } from '../../src/api/records/index.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import type { Config } from '../../src/config/types.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { Window } from '../../src/sync/types.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { shipmentHeader } from '../helpers/shipmentRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * The stream+scope lock covers fetch AND write: a run that waited for another must not commit an
 * answer it fetched before the other run stored newer data.
 */

const logger = pino({ level: 'silent' });
const scope = { kind: 'account' as const, id: 'ACCL' };
const window: Window = {
  kind: 'minute',
  start: new Date('2026-06-01T10:00:00Z'),
  end: new Date('2026-06-01T11:00:00Z'),
  advanceTo: new Date('2026-06-01T11:00:00Z'),
};

function shipment(status: string): ShipmentUpdate {
  return {
    header: shipmentHeader('L1', status),
    lineItems: [{ containerId: 'L1', lineNumber: 1, sku: 'SKU1', quantity: 2 }],
    events: [],
  };
}

let t: TestDatabase;
let config: Config;

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase({ max: 6 }));
});
afterAll(() => t?.close());

async function waitFor(what: string, ok: () => Promise<boolean> | boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await ok())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** pg_locks is cluster-wide: only this file's database counts. */
const OUR_ADVISORY_LOCKS = `SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'
  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`;

const status = async () =>
  (await t.pool.query("SELECT status_code FROM fulfillment.shipments WHERE container_id = 'L1'")).rows[0]
    ?.status_code;

describe('stream lock across fetch and write', () => {
  it('a run that waited never commits data older than what the other run stored', async () => {
    const calls: string[] = [];
    let openGate: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => {
      openGate = resolve;
    });
    const client = {
      listShipmentUpdates: async () => {
        const n = calls.length + 1;
        calls.push(`fetch ${n}`);
        // Call 1 (run A) is slow and sees the old state; any later call sees the newer one.
        if (n === 1) {
          await gate;
          return { records: [shipment('SHIPPED')], rejected: [] };
        }
        return { records: [shipment('DELIVERED')], rejected: [] };
      },
    } as unknown as FulfillmentClient;
    const run = () =>
      runStream({ pool: t.pool, client, config, logger, stream: shipmentsStream, scope, windows: [window] });

    const a = run();
    await waitFor('run A to fetch', () => calls.length === 1);
    let bDone = false;
    const b = run().finally(() => {
      bDone = true;
    });
    // Either B ran to the end (it fetched without the lock) or it waits on the lock.
    await waitFor('run B to finish or wait on the lock', async () => {
      if (bDone) return true;
      const res = await t.pool.query(`${OUR_ADVISORY_LOCKS} AND NOT granted`);
      return res.rows[0].n > 0;
    });
    expect(calls).toEqual(['fetch 1']);
    openGate();
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra.status).toBe('succeeded');
    expect(rb.status).toBe('succeeded');
    expect(calls).toEqual(['fetch 1', 'fetch 2']);
    expect(await status()).toBe('DELIVERED');
  });

  it('a failed run releases the lock and its connection', async () => {
    const failing = {
      listShipmentUpdates: async () => {
        throw new Error('HTTP 503 after 3 attempts');
      },
    } as unknown as FulfillmentClient;
    const base = { pool: t.pool, config, logger, stream: shipmentsStream, scope, windows: [window] };
    expect((await runStream({ ...base, client: failing })).status).toBe('failed');
    await waitFor('every connection back in the pool', () => t.pool.totalCount === t.pool.idleCount);
    const ok = {
      listShipmentUpdates: async () => ({ records: [shipment('DELIVERED')], rejected: [] }),
    } as unknown as FulfillmentClient;
    expect((await runStream({ ...base, client: ok, lockMode: 'skip' })).status).toBe('succeeded');
    const held = await t.pool.query(OUR_ADVISORY_LOCKS);
    expect(held.rows[0].n).toBe(0);
  });

  it('a run failing while others wait on its lock finishes even when they hold the rest of the pool', async () => {
    const small = await createTestDatabase({ max: 2 });
    try {
      let calls = 0;
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      const client = {
        listShipmentUpdates: async () => {
          calls += 1;
          if (calls === 1) {
            await gate;
            throw new Error('HTTP 503 after 3 attempts');
          }
          return { records: [shipment('DELIVERED')], rejected: [] };
        },
      } as unknown as FulfillmentClient;
      const run = () =>
        runStream({
          pool: small.pool,
          client,
          config: loadConfig({ DATABASE_URL: small.url }),
          logger,
          stream: shipmentsStream,
          scope,
          windows: [window],
        });
      const a = run();
      await waitFor('run A to fetch', () => calls === 1);
      const b = run(); // takes the pool's second connection and waits on A's lock
      await waitFor(
        'run B to hold the last connection',
        () => small.pool.idleCount === 0 && small.pool.totalCount === 2,
      );
      release();
      const [ra, rb] = await Promise.all([a, b]);
      expect(ra.status).toBe('failed');
      expect(rb.status).toBe('succeeded');
      const failed = await small.pool.query(
        "SELECT count(*)::int AS n FROM sync.runs WHERE status = 'failed'",
      );
      expect(failed.rows[0].n).toBe(1);
    } finally {
      await small.close();
    }
  });
});
