import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { runStream } from '../../src/sync/runStream.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { FAIL_FAST, simulatorClient, simulatorConfig } from '../helpers/syncHarness.ts';

/**
 * An upstream that silently truncates answers at N rows: an answer of exactly
 * FULFILLMENT_MAX_ROWS_PER_WINDOW = N rows may be cut, so it is split like an over-cap one and
 * every record of the window is stored.
 */

const logger = pino({ level: 'silent' });
const CAP = 4;
let t: TestDatabase;
let sim: RunningSimulator | undefined;

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await sim?.close();
  await t?.close();
});

describe('silently truncated answers', () => {
  it('an answer of exactly maxRowsPerWindow rows is split until every record is read', async () => {
    sim = await startSimulator({
      seed: 5,
      clock: 'manual',
      start: new Date('2026-06-10T19:00:00Z'),
      volume: { historyDays: 4 },
      rowCap: CAP,
      rowCapMode: 'truncate',
    });
    const config = simulatorConfig(t.url, sim, { FULFILLMENT_MAX_ROWS_PER_WINDOW: String(CAP) });
    const client = simulatorClient(sim, config, FAIL_FAST);
    const account = sim.world.accounts[0]?.number as string;
    const expected = (sim.truth().shipmentUpdates[account] ?? []).length;
    expect(expected).toBeGreaterThan(2 * CAP);
    const result = await runStream({
      pool: t.pool,
      client,
      config: {
        ...config,
        streams: { ...config.streams, shipments: { ...config.streams.shipments, windowSize: 24 * 60 } },
      },
      logger,
      stream: shipmentsStream,
      scope: { kind: 'account', id: account },
      now: new Date(sim.clock.now()),
    });
    expect(result.status).toBe('succeeded');
    const stored = await t.pool.query(
      'SELECT count(*)::int AS n FROM fulfillment.shipments WHERE account_number = $1',
      [account],
    );
    expect(stored.rows[0].n).toBe(expected);
  });
});
