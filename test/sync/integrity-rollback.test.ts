import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { transfersInStream } from '../../src/streams/transfersIn.ts';
import { runStream } from '../../src/sync/runStream.ts';
import type { EventSink, Window } from '../../src/sync/types.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { FAIL_FAST, simulatorClient, simulatorConfig } from '../helpers/syncHarness.ts';
import { tuplesWritten } from './tuples.ts';

/**
 * A failure mid-window leaves the cursor where it was and the tables without partial writes for
 * that window, also when it strikes after its rows were written in the transaction. (A detail that
 * keeps failing is not such a failure: see detail-failures.test.ts.)
 */

const logger = pino({ level: 'silent' });
const TABLES = ['transfers_in', 'transfer_in_lines', 'transfer_in_notes'];
const DAY = 86_400_000;
let t: TestDatabase;
let sim: RunningSimulator;

beforeAll(async () => {
  t = await createTestDatabase();
  sim = await startSimulator({ seed: 7, clock: 'manual', start: new Date('2026-06-10T19:00:00Z') });
});
afterAll(async () => {
  await sim?.close();
  await t?.close();
});

function setup() {
  const config = simulatorConfig(t.url, sim);
  const client = simulatorClient(sim, config, FAIL_FAST);
  const now = new Date(sim.clock.now());
  // One window over the whole re-read horizon: everything the supplier submitted lands or nothing.
  const window: Window = { kind: 'day', start: new Date(now.getTime() - 90 * DAY), end: now, advanceTo: now };
  const supplier = sim.world.suppliers.find((s) =>
    [...sim.world.transfersIn.values()].some((i) => i.supplierId === s.id && i.submittedAt != null),
  )?.id;
  if (!supplier) throw new Error('the simulated world has no submitted IN');
  const run = (eventSink?: EventSink) =>
    runStream({
      pool: t.pool,
      client,
      config,
      logger,
      stream: transfersInStream,
      scope: { kind: 'supplier', id: supplier },
      now,
      windows: [window],
      ...(eventSink ? { eventSink } : {}),
    });
  return { supplier, run };
}

async function state(supplier: string) {
  const rows = await t.pool.query(
    'SELECT count(*)::int AS n FROM fulfillment.transfers_in WHERE supplier_id = $1',
    [supplier],
  );
  const lines = await t.pool.query(
    'SELECT count(*)::int AS n FROM fulfillment.transfer_in_lines WHERE supplier_id = $1',
    [supplier],
  );
  const cursor = await t.pool.query(
    "SELECT position_at, last_success_at FROM sync.cursors WHERE stream = 'transfers_in' AND scope = $1",
    [supplier],
  );
  return { rows: rows.rows[0].n, lines: lines.rows[0].n, cursor: cursor.rows };
}

async function failedRuns(supplier: string): Promise<string[]> {
  const res = await t.pool.query(
    "SELECT error FROM sync.runs WHERE stream = 'transfers_in' AND scope = $1 AND status = 'failed' ORDER BY id",
    [supplier],
  );
  return res.rows.map((r) => r.error as string);
}

describe('a window failing part-way rolls back entirely', () => {
  it('a failure after the rows were written in the transaction leaves none of them', async () => {
    const { supplier, run } = setup();
    const before = await tuplesWritten(t.pool, TABLES);
    let writtenInTx = 0;
    // The event sink runs after the window's parents and children are written, in the same transaction.
    const failingSink: EventSink = async ({ tx }) => {
      const res = await tx.query(
        'SELECT count(*)::int AS n FROM fulfillment.transfer_in_lines WHERE supplier_id = $1',
        [supplier],
      );
      writtenInTx = Number(res.rows[0]?.n);
      throw new Error('outbox write failed: HTTP 503 from the event store');
    };
    const result = await run(failingSink);
    expect(writtenInTx).toBeGreaterThan(0);
    expect(result.status).toBe('failed');
    expect(result.error).toContain('outbox write failed');
    expect(await state(supplier)).toEqual({ rows: 0, lines: 0, cursor: [] });
    expect(await tuplesWritten(t.pool, TABLES)).toBeGreaterThan(before); // written, then rolled back
    expect(await failedRuns(supplier)).toHaveLength(1);

    // The same window, healthy: it lands whole and the cursor moves.
    expect((await run()).status).toBe('succeeded');
    const after = await state(supplier);
    expect(after.rows).toBeGreaterThan(0);
    expect(after.lines).toBe(writtenInTx);
    expect(after.cursor).toHaveLength(1);
  });
});
