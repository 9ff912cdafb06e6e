import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AnswerTooLargeError } from '../../src/api/errors.ts';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { ShipmentUpdate } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { Window } from '../../src/sync/types.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { shipmentHeader } from '../helpers/shipmentRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';
import { tuplesWritten } from './tuples.ts';

/**
 * The engine against real Postgres with a scripted client: what it writes, what it leaves alone,
 * rejections, failures, splitting and the advisory lock. (Streams against the simulator: see
 * streams.test.ts.)
 */

const logger = pino({ level: 'silent' });
const scope = { kind: 'account' as const, id: 'ACC1' };
const window: Window = {
  kind: 'minute',
  start: new Date('2026-06-01T10:00:00Z'),
  end: new Date('2026-06-01T11:00:00Z'),
  advanceTo: new Date('2026-06-01T11:00:00Z'),
};

function shipment(id: string, status = 'SHIPPED', events = 1): ShipmentUpdate {
  return {
    header: shipmentHeader(id, status),
    lineItems: [
      { containerId: id, lineNumber: 1, sku: 'SKU1', quantity: 2 },
      { containerId: id, lineNumber: 2, sku: 'SKU2', quantity: 1 },
    ],
    events: Array.from({ length: events }, (_, i) => ({
      containerId: id,
      eventTime: `2026-06-01T0${i}:00:00-07:00`,
      city: 'Napa',
      stateOrProvince: 'CA',
      description: `scan ${i}`,
    })),
  };
}

/** A client answering whatever the test puts in `answer` (or throwing `fail`). */
function scriptedClient() {
  const state: {
    answer: ShipmentUpdate[];
    rejected: { index: number; reason: string; raw: unknown }[];
    fail?: Error;
    calls: number;
    delayMs: number;
  } = {
    answer: [],
    rejected: [],
    calls: 0,
    delayMs: 0,
  };
  const client = {
    listShipmentUpdates: async () => {
      state.calls += 1;
      if (state.delayMs) await new Promise((r) => setTimeout(r, state.delayMs));
      if (state.fail) throw state.fail;
      return { records: structuredClone(state.answer), rejected: state.rejected };
    },
  } as unknown as FulfillmentClient;
  return { client, state };
}

let t: TestDatabase;
let config: Config;

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

async function count(table: string): Promise<number> {
  const res = await t.pool.query(`SELECT count(*)::int AS n FROM fulfillment.${table}`);
  return res.rows[0].n;
}

describe('runStream (engine)', () => {
  const { client, state } = scriptedClient();
  const run = (extra: Partial<Parameters<typeof runStream>[0]> = {}) =>
    runStream({
      pool: t.pool,
      client,
      config,
      logger,
      stream: shipmentsStream,
      scope,
      windows: [window],
      ...extra,
    });

  it('stores records with children, then writes zero tuples when nothing changed', async () => {
    state.answer = [shipment('C1'), shipment('C2'), shipment('C1')];
    const first = await run();
    expect(first).toMatchObject({ status: 'succeeded', inserted: 2, updated: 0, fetched: 3 });
    expect(await count('shipment_lines')).toBe(4);
    expect(await count('shipment_events')).toBe(2);

    const before = await tuplesWritten(t.pool, ['shipments', 'shipment_lines', 'shipment_events']);
    const cursorBefore = await t.pool.query('SELECT position_at, updated_at FROM sync.cursors');
    const second = await run();
    expect(second).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0, unchanged: 2 });
    expect(await tuplesWritten(t.pool, ['shipments', 'shipment_lines', 'shipment_events'])).toBe(before);
    expect((await t.pool.query('SELECT position_at, updated_at FROM sync.cursors')).rows).toEqual(
      cursorBefore.rows,
    );
  });

  it('replaces the children of a changed record as a set and leaves others alone', async () => {
    const changed = shipment('C1', 'DELIVERED', 3);
    changed.lineItems = [{ containerId: 'C1', lineNumber: 1, sku: 'SKU1', quantity: 5 }];
    state.answer = [changed, shipment('C2')];
    const before = await tuplesWritten(t.pool, ['shipment_lines']);
    const result = await run();
    expect(result).toMatchObject({ updated: 1, unchanged: 1 });
    const lines = await t.pool.query(
      "SELECT line_number, quantity FROM fulfillment.shipment_lines WHERE container_id = 'C1'",
    );
    expect(lines.rows).toEqual([{ line_number: 1, quantity: 5 }]);
    expect(await count('shipment_events')).toBe(4);
    // one line updated, one deleted: C2's lines untouched
    expect(await tuplesWritten(t.pool, ['shipment_lines'])).toBe(before + 2);
  });

  it('stores rejected records and the rest of the batch; the run is partial', async () => {
    state.answer = [shipment('C3')];
    state.rejected = [
      {
        index: 1,
        reason: 'header.statusCode: expected string',
        raw: { header: { containerId: 'BAD', statusCode: 7 } },
      },
    ];
    const result = await run();
    state.rejected = [];
    expect(result).toMatchObject({ status: 'partial', inserted: 1, rejected: 1 });
    const rejected = await t.pool.query(
      'SELECT stream, scope, reason, raw, run_id FROM sync.rejected_records',
    );
    expect(rejected.rows[0]).toMatchObject({
      stream: 'shipments',
      scope: 'ACC1',
      raw: { header: { containerId: 'BAD' } },
    });
    expect(rejected.rows[0].run_id).not.toBeNull();
  });

  it('rejects a record whose row cannot be built (bad date-time) while its siblings land', async () => {
    const bad = shipment('C4');
    bad.header.shipDate = '2026-02-30T10:00';
    state.answer = [bad, shipment('C5')];
    const result = await run();
    expect(result).toMatchObject({ status: 'partial', inserted: 1, rejected: 1 });
    expect(await count('shipments')).toBe(4);
  });

  it('a failing window keeps the cursor, writes nothing and records a failed run', async () => {
    const cursor = await t.pool.query('SELECT position_at FROM sync.cursors');
    const before = await tuplesWritten(t.pool, ['shipments', 'shipment_lines', 'shipment_events']);
    state.answer = [shipment('C6')];
    state.fail = new Error('HTTP 503 after 3 attempts');
    const result = await run({
      windows: [
        { ...window, end: new Date('2026-06-01T12:00:00Z'), advanceTo: new Date('2026-06-01T12:00:00Z') },
      ],
    });
    state.fail = undefined;
    expect(result.status).toBe('failed');
    expect(result.error).toContain('HTTP 503');
    expect((await t.pool.query('SELECT position_at FROM sync.cursors')).rows).toEqual(cursor.rows);
    expect(await tuplesWritten(t.pool, ['shipments', 'shipment_lines', 'shipment_events'])).toBe(before);
    const failed = await t.pool.query("SELECT error FROM sync.runs WHERE status = 'failed'");
    expect(failed.rows[0].error).toContain('HTTP 503');
  });

  it('splits a window whose answer is over the cap and reads all of it', async () => {
    const small = { ...config, api: { ...config.api, maxRowsPerWindow: 3 } };
    let calls = 0;
    const splitting = {
      listShipmentUpdates: async (q: { beginDate: string; endDate: string }) => {
        calls += 1;
        // 8 containers, one per 15 minutes; answer only what lies inside the asked range.
        const all = Array.from({ length: 8 }, (_, i) => ({
          at: `2026-06-02T0${Math.floor(i / 4) + 1}:${String((i % 4) * 15).padStart(2, '0')}`,
          s: shipment(`S${i}`),
        }));
        const records = all.filter((x) => x.at >= q.beginDate && x.at <= q.endDate).map((x) => x.s);
        // As the real client does at FULFILLMENT_MAX_ROWS_PER_WINDOW (here 3).
        if (records.length >= 3)
          throw new AnswerTooLargeError('answer at the row cap', { operation: 'GET Shipments/Updates' });
        return { records, rejected: [] };
      },
    } as unknown as FulfillmentClient;
    const w: Window = {
      kind: 'minute',
      start: new Date('2026-06-02T08:00:00Z'),
      end: new Date('2026-06-02T10:00:00Z'),
    };
    const result = await runStream({
      pool: t.pool,
      client: splitting,
      config: small,
      logger,
      stream: shipmentsStream,
      scope,
      windows: [w],
    });
    expect(result).toMatchObject({ status: 'succeeded', inserted: 8 });
    expect(calls).toBeGreaterThan(1);

    const tooLarge = {
      listShipmentUpdates: async () => {
        throw new AnswerTooLargeError('answer at the row cap', { operation: 'GET Shipments/Updates' });
      },
    } as unknown as FulfillmentClient;
    const failing = await runStream({
      pool: t.pool,
      client: tooLarge,
      config,
      logger,
      stream: shipmentsStream,
      scope,
      windows: [w],
    });
    expect(failing.status).toBe('failed');
    expect(failing.error).toMatch(/too large and cannot be split/);
  });

  it('two concurrent runs of the same stream and scope never double-write', async () => {
    state.answer = Array.from({ length: 50 }, (_, i) => shipment(`P${i}`));
    state.delayMs = 50;
    const before = await tuplesWritten(t.pool, ['shipments']);
    const [a, b] = await Promise.all([run(), run()]);
    state.delayMs = 0;
    expect(a.inserted + b.inserted).toBe(50);
    expect(a.unchanged + b.unchanged).toBe(50);
    expect(await tuplesWritten(t.pool, ['shipments'])).toBe(before + 50);

    const [c, d] = await Promise.all([run({ lockMode: 'skip' }), run({ lockMode: 'skip' })]);
    expect([c.status, d.status]).toContain('succeeded');
  });
});
