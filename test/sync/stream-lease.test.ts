import { Writable } from 'node:stream';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { ShipmentUpdate, TransferInListRow } from '../../src/api/records/index.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import type { Config } from '../../src/config/types.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { transfersInStream } from '../../src/streams/transfersIn.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { Window } from '../../src/sync/types.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { shipmentHeader } from '../helpers/shipmentRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';
import { waitFor } from '../helpers/waitFor.ts';

/**
 * A stream+scope run is exclusive without pinning a connection: its lease is taken before the
 * cursor is read, no pool client is held while it calls upstream, and its write commits only if
 * the lease is still its own, so a run that waited, or lost its lease, never stores older data.
 */

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

/** A logger whose lines the test can read. */
function capturedLogger() {
  const lines: string[] = [];
  const sink = new Writable({
    write(chunk, _enc, done) {
      lines.push(String(chunk));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, sink), lines };
}

/** A promise the test opens when it wants. */
function gate() {
  let open: () => void = () => undefined;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

let t: TestDatabase;
let config: Config;

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase({ max: 6 }));
});
afterAll(() => t?.close());

const status = async () =>
  (await t.pool.query("SELECT status_code FROM fulfillment.shipments WHERE container_id = 'L1'")).rows[0]
    ?.status_code;

/** Sessions of this file's database other than the sampling one, by state. */
async function sessions(): Promise<{ state: string; count: number }[]> {
  const res = await t.pool.query(
    `SELECT coalesce(state, '') AS state, count(*)::int AS count FROM pg_stat_activity
      WHERE datname = current_database() AND pid <> pg_backend_pid() GROUP BY 1`,
  );
  return res.rows as { state: string; count: number }[];
}

describe('stream lease', () => {
  it('a run that waited never commits data older than what the other run stored, and neither holds a connection while it waits or fetches', async () => {
    const calls: string[] = [];
    const slow = gate();
    const client = {
      listShipmentUpdates: async () => {
        const n = calls.length + 1;
        calls.push(`fetch ${n}`);
        // Call 1 (run A) is slow and sees the old state; any later call sees the newer one.
        if (n === 1) {
          await slow.opened;
          return { records: [shipment('SHIPPED')], rejected: [] };
        }
        return { records: [shipment('DELIVERED')], rejected: [] };
      },
    } as unknown as FulfillmentClient;
    const { logger, lines } = capturedLogger();
    const run = () =>
      runStream({ pool: t.pool, client, config, logger, stream: shipmentsStream, scope, windows: [window] });

    const a = run();
    await waitFor('run A to fetch', () => calls.length === 1);
    const b = run();
    await waitFor('run B to wait for the lease', () =>
      lines.some((l) => l.includes('waiting for it to finish')),
    );
    expect(calls).toEqual(['fetch 1']);
    // B polls the lease with one short statement at a time; nothing stays checked out.
    await waitFor('no pool client held', () => t.pool.totalCount === t.pool.idleCount);
    expect((await sessions()).filter((s) => s.state.startsWith('idle in transaction'))).toEqual([]);
    slow.open();
    const [ra, rb] = await Promise.all([a, b]);
    expect(ra.status).toBe('succeeded');
    expect(rb.status).toBe('succeeded');
    expect(calls).toEqual(['fetch 1', 'fetch 2']);
    expect(await status()).toBe('DELIVERED');
  });

  it('a run whose lease was taken over writes nothing, whatever it fetched', async () => {
    const slow = gate();
    let fetching = false;
    const stale = {
      listShipmentUpdates: async () => {
        fetching = true;
        await slow.opened;
        return { records: [shipment('IN_TRANSIT')], rejected: [] };
      },
    } as unknown as FulfillmentClient;
    const logger = pino({ level: 'silent' });
    const a = runStream({
      pool: t.pool,
      client: stale,
      config,
      logger,
      stream: shipmentsStream,
      scope,
      windows: [window],
    });
    await waitFor('run A to fetch', () => fetching);
    // Another holder takes the lease over, as after a pause longer than its expiry.
    await t.pool.query(
      `UPDATE sync.stream_leases SET holder = 'another', fence = fence + 1, expires_at = clock_timestamp() - interval '1 ms'
        WHERE stream = 'shipments' AND scope = $1`,
      [scope.id],
    );
    const fresh = {
      listShipmentUpdates: async () => ({ records: [shipment('EXCEPTION')], rejected: [] }),
    } as unknown as FulfillmentClient;
    const b = await runStream({
      pool: t.pool,
      client: fresh,
      config,
      logger,
      stream: shipmentsStream,
      scope,
      windows: [window],
    });
    expect(b.status).toBe('succeeded');
    slow.open();
    const ra = await a;
    expect(ra.status).toBe('failed');
    expect(ra.error).toMatch(/another run took over/);
    expect(await status()).toBe('EXCEPTION');
  });

  it('a failed run frees its lease and returns every connection', async () => {
    const failing = {
      listShipmentUpdates: async () => {
        throw new Error('HTTP 503 after 3 attempts');
      },
    } as unknown as FulfillmentClient;
    const base = {
      pool: t.pool,
      config,
      logger: pino({ level: 'silent' }),
      stream: shipmentsStream,
      scope,
      windows: [window],
    };
    expect((await runStream({ ...base, client: failing })).status).toBe('failed');
    await waitFor('every connection back in the pool', () => t.pool.totalCount === t.pool.idleCount);
    const ok = {
      listShipmentUpdates: async () => ({ records: [shipment('DELIVERED')], rejected: [] }),
    } as unknown as FulfillmentClient;
    expect((await runStream({ ...base, client: ok, lockMode: 'skip' })).status).toBe('succeeded');
  });

  it('runs waiting on a failing run need no connection, even from a pool of two', async () => {
    const small = await createTestDatabase({ max: 2 });
    try {
      let calls = 0;
      const slow = gate();
      const client = {
        listShipmentUpdates: async () => {
          calls += 1;
          if (calls === 1) {
            await slow.opened;
            throw new Error('HTTP 503 after 3 attempts');
          }
          return { records: [shipment('DELIVERED')], rejected: [] };
        },
      } as unknown as FulfillmentClient;
      const { logger, lines } = capturedLogger();
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
      const runs = [run(), run(), run()];
      await waitFor(
        'two runs to wait',
        () => lines.filter((l) => l.includes('waiting for it to finish')).length === 2,
      );
      slow.open();
      const results = await Promise.all(runs);
      expect(results.map((r) => r.status).sort()).toEqual(['failed', 'succeeded', 'succeeded']);
    } finally {
      await small.close();
    }
  });

  it('while a detail call is slow, no session of the run is idle in transaction and no pool client is held', async () => {
    const slow = gate();
    let inDetail = false;
    const row: TransferInListRow = {
      supplierId: 'SUPL',
      rowId: 1,
      orderNumber: 'IN1',
      submittedDate: '2026-06-05T10:00:00',
      statusCode: 'SUBMITTED',
      lastUpdateDate: '2026-06-05T10:00:00',
    };
    const client = {
      listTransfersIn: async () => ({ records: [structuredClone(row)], rejected: [] }),
      getTransferInDetail: async () => {
        inDetail = true;
        await slow.opened;
        return {
          record: { header: row, lineItems: [{ lineNumber: 1, qtyReceived: 1 }], notes: [] },
          rejected: [],
        };
      },
    } as unknown as FulfillmentClient;
    const run = runStream({
      pool: t.pool,
      client,
      config,
      logger: pino({ level: 'silent' }),
      stream: transfersInStream,
      scope: { kind: 'supplier', id: 'SUPL' },
      windows: [
        { kind: 'day', start: new Date('2026-06-01T07:00:00Z'), end: new Date('2026-06-10T07:00:00Z') },
      ],
    });
    await waitFor('the detail call', () => inDetail);
    const samples: { state: string; count: number }[][] = [];
    for (let i = 0; i < 5; i += 1) {
      samples.push(await sessions());
      expect(t.pool.totalCount - t.pool.idleCount).toBe(0);
    }
    expect(
      samples.flat().filter((s) => s.state.startsWith('idle in transaction') || s.state === 'active'),
    ).toEqual([]);
    slow.open();
    expect((await run).status).toBe('succeeded');
  });
});
