import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { Config } from '../../src/config/types.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import { invoicesStream } from '../../src/streams/invoices.ts';
import { returnsStream } from '../../src/streams/returns.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { transfersOutStream } from '../../src/streams/transfersOut.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { StreamDefinition } from '../../src/sync/types.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { type SyncHarness, startSyncHarness } from '../helpers/syncHarness.ts';
import { warehouseMismatches } from '../helpers/warehouseTruth.ts';
import { tuplesWritten } from './tuples.ts';

/**
 * shipments, returns, transfers_out and invoices against the simulator over HTTP: a simulated week
 * of clock advances with a sync after each step, then the warehouse must equal the simulator's
 * truth exactly, and a second sync must write nothing.
 */

const SLOW = process.env.SLOW_TESTS === '1';
const STEP_MINUTES = SLOW ? 15 : 360;
const DAYS = 7;
const logger = pino({ level: 'silent' });
// biome-ignore lint/suspicious/noExplicitAny: the four streams have different record types.
const STREAMS: StreamDefinition<any, FulfillmentClient>[] = [
  shipmentsStream,
  returnsStream,
  transfersOutStream,
  invoicesStream,
];
const TABLES = [
  'shipments',
  'shipment_lines',
  'shipment_events',
  'returns',
  'return_lines',
  'transfers_out',
  'invoices',
];

let t: TestDatabase;
let sim: RunningSimulator;
let client: FulfillmentClient;
let config: Config;
let harness: SyncHarness | undefined;

async function syncAll(): Promise<void> {
  const now = sim.clock.now();
  for (const stream of STREAMS) {
    const scopes =
      stream.scopeKind === 'account'
        ? sim.world.accounts.map((a) => a.number)
        : sim.world.suppliers.map((s) => s.id);
    for (const id of scopes) {
      const result = await runStream({
        pool: t.pool,
        client,
        config,
        logger,
        stream,
        scope: { kind: stream.scopeKind, id },
        now: new Date(now),
      });
      if (result.status !== 'succeeded')
        throw new Error(`${stream.name} ${id}: ${result.status} ${result.error ?? ''}`);
    }
  }
}

beforeAll(async () => {
  harness = await startSyncHarness(
    { seed: 11, start: new Date('2026-10-28T07:00:00Z'), volume: { historyDays: 5 } },
    {
      FULFILLMENT_STREAMS: JSON.stringify({
        shipments: { windowSize: 240 },
        returns: { windowSize: 7 },
        invoices: { windowSize: 30 },
      }),
    },
  );
  ({ t, sim, config, client } = harness);
}, 120_000);
afterAll(() => harness?.close());

describe('four streams against the simulator', () => {
  it(`after a simulated week (sync every ${STEP_MINUTES} min, across the 2026-11-01 DST change) equal the truth`, async () => {
    await syncAll();
    for (let minutes = 0; minutes < DAYS * 24 * 60; minutes += STEP_MINUTES) {
      sim.advance(STEP_MINUTES);
      await syncAll();
    }
    const truth = sim.truth();
    expect(
      await warehouseMismatches(t.pool, truth, {
        streams: ['shipments', 'returns', 'transfers_out', 'invoices'],
      }),
    ).toEqual([]);
    const counts = await t.pool.query(
      'SELECT (SELECT count(*) FROM fulfillment.shipments)::int AS s, (SELECT count(*) FROM fulfillment.returns)::int AS r, (SELECT count(*) FROM fulfillment.invoices)::int AS i, (SELECT count(*) FROM fulfillment.transfers_out)::int AS o',
    );
    expect(counts.rows[0].s).toBeGreaterThan(0);
    expect(counts.rows[0].r).toBeGreaterThan(0);
    expect(counts.rows[0].i).toBeGreaterThan(0);
    expect(counts.rows[0].o).toBeGreaterThan(0);
    // Changed shipments and returns named their orders for the orders stream.
    const requests = await t.pool.query('SELECT count(*)::int AS n FROM sync.detail_requests');
    expect(requests.rows[0].n).toBeGreaterThan(0);
    // A week of syncs: a minute alone, longer beside other test files on a shared machine.
  }, 240_000);

  it('a second sync with nothing changed writes zero tuples and moves no cursor but its last success', async () => {
    const before = await tuplesWritten(t.pool, TABLES);
    const cursors = await t.pool.query(
      'SELECT stream, scope, position_at, position, updated_at FROM sync.cursors ORDER BY 1, 2',
    );
    await syncAll();
    expect(await tuplesWritten(t.pool, TABLES)).toBe(before);
    expect(
      (
        await t.pool.query(
          'SELECT stream, scope, position_at, position, updated_at FROM sync.cursors ORDER BY 1, 2',
        )
      ).rows,
    ).toEqual(cursors.rows);
  });
});
