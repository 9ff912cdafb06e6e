import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { ShipmentUpdate } from '../../src/api/records/index.ts';
import type { Config } from '../../src/config/types.ts';
import { metricsRegistry } from '../../src/http/registry.ts';
import { createStatusReadModel } from '../../src/http/status/readModel.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { Window } from '../../src/sync/types.ts';
import { wireMetricSources } from '../../src/worker/metricsSources.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { shipmentHeader } from '../helpers/shipmentRecords.ts';
import { startSyncDatabase } from '../helpers/syncHarness.ts';

/**
 * Issue 25: a poll that finds nothing new writes no sync.runs row; its success is on the cursor
 * (last_success_at, last_polled_at), where lag, the metric and the status page read it. Runs that
 * change, fail or quarantine keep their row.
 */

const logger = pino({ level: 'silent' });
const scope = { kind: 'account' as const, id: 'ACC-EMPTY' };
const window: Window = {
  kind: 'minute',
  start: new Date('2026-06-01T10:00:00Z'),
  end: new Date('2026-06-01T11:00:00Z'),
  advanceTo: new Date('2026-06-01T11:00:00Z'),
};

function shipment(id: string, status = 'SHIPPED'): ShipmentUpdate {
  return {
    header: shipmentHeader(id, status),
    lineItems: [{ containerId: id, lineNumber: 1, sku: 'SKU1', quantity: 2 }],
    events: [],
  };
}

let t: TestDatabase;
let config: Config;
const state: { answer: ShipmentUpdate[]; fail?: Error; calls: number } = { answer: [], calls: 0 };
const client = {
  listShipmentUpdates: async () => {
    state.calls += 1;
    if (state.fail) throw state.fail;
    return { records: structuredClone(state.answer), rejected: [] };
  },
} as unknown as FulfillmentClient;

beforeAll(async () => {
  ({ t, config } = await startSyncDatabase());
});
afterAll(() => t?.close());

const run = (now: Date) =>
  runStream({ pool: t.pool, client, config, logger, stream: shipmentsStream, scope, windows: [window], now });

async function runRows(): Promise<number> {
  const res = await t.pool.query('SELECT count(*)::int AS n FROM sync.runs WHERE scope = $1', [scope.id]);
  return res.rows[0].n;
}

/** Tuples inserted and updated in a sync table so far (pool connections flushed first, as tuples.ts). */
async function syncTuples(table: string): Promise<number> {
  const clients = await Promise.all(Array.from({ length: t.pool.totalCount || 1 }, () => t.pool.connect()));
  for (const c of clients) await c.query('SELECT pg_stat_force_next_flush()');
  for (const c of clients) c.release();
  const client = await t.pool.connect();
  try {
    await client.query('SELECT pg_stat_clear_snapshot()');
    const res = await client.query(
      `SELECT n_tup_ins + n_tup_upd AS n FROM pg_stat_user_tables WHERE schemaname = 'sync' AND relname = $1`,
      [table],
    );
    return Number(res.rows[0].n);
  } finally {
    client.release();
  }
}

async function cursor(): Promise<{ last_success_at: Date; last_polled_at: Date }> {
  const res = await t.pool.query(
    'SELECT last_success_at, last_polled_at FROM sync.cursors WHERE stream = $1 AND scope = $2',
    [shipmentsStream.name, scope.id],
  );
  return res.rows[0];
}

describe('empty polls (issue 25)', () => {
  it('a poll with a change writes one run row; an empty poll writes none and moves the stamps', async () => {
    state.answer = [shipment('E1')];
    const first = await run(new Date('2026-06-01T11:01:00Z'));
    expect(first).toMatchObject({ status: 'succeeded', inserted: 1 });
    expect(await runRows()).toBe(1);
    const afterChange = await cursor();
    const row = await t.pool.query('SELECT finished_at FROM sync.runs WHERE scope = $1', [scope.id]);
    // The stamp of a window with a row is that row's finish: the row is the newest run.
    expect(afterChange.last_polled_at).toEqual(row.rows[0].finished_at);

    const calls = state.calls;
    const [runsBefore, cursorsBefore] = [await syncTuples('runs'), await syncTuples('cursors')];
    const empty = await run(new Date('2026-06-01T11:02:00Z'));
    // One cursor row written once (its stamps; the run summary is the one before's), no run row.
    expect(await syncTuples('runs')).toBe(runsBefore);
    expect(await syncTuples('cursors')).toBe(cursorsBefore + 1);
    expect(empty).toMatchObject({ status: 'succeeded', inserted: 0, updated: 0, unchanged: 1, apiCalls: 1 });
    expect(empty.lastRunId).toBeUndefined();
    expect(state.calls - calls).toBe(1);
    expect(await runRows()).toBe(1);
    const afterEmpty = await cursor();
    expect(afterEmpty.last_success_at).toEqual(new Date('2026-06-01T11:02:00Z'));
    expect(afterEmpty.last_polled_at.getTime()).toBeGreaterThan(afterChange.last_polled_at.getTime());

    state.answer = [shipment('E1', 'DELIVERED')];
    expect(await run(new Date('2026-06-01T11:03:00Z'))).toMatchObject({ updated: 1 });
    expect(await runRows()).toBe(2);
  });

  it('a failed poll keeps its row and the stamps; the status page shows the empty poll after it', async () => {
    const before = await cursor();
    state.fail = new Error('HTTP 503 after 3 attempts');
    expect((await run(new Date('2026-06-01T11:04:00Z'))).status).toBe('failed');
    state.fail = undefined;
    expect(await runRows()).toBe(3);
    expect(await cursor()).toEqual(before);
    const page = createStatusReadModel(t.pool, config);
    const rowOf = async () => (await page()).streams.find((s) => s.scope === scope.id);
    expect((await rowOf())?.lastRunStatus).toBe('failed');

    expect((await run(new Date('2026-06-01T11:05:00Z'))).status).toBe('succeeded');
    expect(await runRows()).toBe(3);
    const fresh = createStatusReadModel(t.pool, config);
    const shown = (await fresh()).streams.find((s) => s.scope === scope.id);
    expect(shown).toMatchObject({ lastRunStatus: 'succeeded', vanishWithheld: 0 });
    expect(shown?.lastSuccessAt).toEqual(new Date('2026-06-01T11:05:00Z'));
    const health = await t.pool.query(
      'SELECT last_run_status, last_run_at FROM fulfillment.sync_health WHERE scope = $1',
      [scope.id],
    );
    expect(health.rows[0].last_run_status).toBe('succeeded');
    expect(health.rows[0].last_run_at).toEqual((await cursor()).last_polled_at);
  });

  it('the lag metric follows the stamp an empty poll moves', async () => {
    wireMetricSources([], t.pool);
    const lagOf = async () => {
      const text = await metricsRegistry.metrics();
      const line = text
        .split('\n')
        .find((l) => l.startsWith('fulfillment_stream_lag_seconds{') && l.includes(`scope="${scope.id}"`));
      return Number(line?.split(' ').pop());
    };
    // Stamped an hour ago: the lag is about an hour.
    await t.pool.query(
      `UPDATE sync.cursors SET last_success_at = now() - interval '1 hour' WHERE scope = $1`,
      [scope.id],
    );
    expect(await lagOf()).toBeGreaterThanOrEqual(3600);
    const rows = await runRows();
    expect(await run(new Date())).toMatchObject({ inserted: 0, updated: 0 });
    expect(await runRows()).toBe(rows);
    expect(await lagOf()).toBeLessThan(3600);
  });
});
