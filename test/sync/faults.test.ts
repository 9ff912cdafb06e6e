import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import type { Config } from '../../src/config/types.ts';
import { type RunningSimulator, type SimulatorOptions, startSimulator } from '../../src/simulator/index.ts';
import type { RegisteredStream } from '../../src/streams/index.ts';
import { invoicesStream } from '../../src/streams/invoices.ts';
import { returnsStream } from '../../src/streams/returns.ts';
import { shipmentsStream } from '../../src/streams/shipments.ts';
import { runStream } from '../../src/sync/runStream.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { FAIL_FAST, simulatorClient, simulatorConfig } from '../helpers/syncHarness.ts';
import { tuplesWritten } from './tuples.ts';

/** The simulator's faults and caps through the real client: rejections, failures, splitting, late updates. */

const logger = pino({ level: 'silent' });
const START = new Date('2026-06-10T19:00:00Z');
let t: TestDatabase;
const sims: RunningSimulator[] = [];

async function open(options: SimulatorOptions = {}) {
  const sim = await startSimulator({
    seed: 5,
    clock: 'manual',
    start: START,
    volume: { historyDays: 4 },
    ...options,
  });
  sims.push(sim);
  const config: Config = simulatorConfig(t.url, sim);
  const client = simulatorClient(sim, config, FAIL_FAST);
  return { sim, client, config, account: sim.world.accounts[0]?.number as string };
}

beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  for (const sim of sims) await sim.close();
  await t?.close();
});

const run = (
  client: FulfillmentClient,
  config: Config,
  stream: RegisteredStream,
  account: string,
  now: Date,
) =>
  runStream({
    pool: t.pool,
    client,
    config,
    logger,
    stream,
    scope: { kind: 'account', id: account },
    now,
  });

describe('faults from the simulator', () => {
  it('a record with a wrong type lands in sync.rejected_records while its siblings land', async () => {
    const { sim, client, config, account } = await open({
      faults: { operations: { 'GET Finances/invoices': { badRecords: 1 } }, corruptions: ['wrongType'] },
    });
    const result = await run(client, config, invoicesStream, account, new Date(sim.clock.now()));
    expect(result.status).toBe('partial');
    expect(result.rejected).toBeGreaterThan(0);
    expect(result.inserted).toBeGreaterThan(0);
    const rejected = await t.pool.query(
      "SELECT reason, raw FROM sync.rejected_records WHERE stream = 'invoices'",
    );
    expect(rejected.rows.length).toBe(result.rejected);
    expect(rejected.rows[0].raw).not.toBeNull();
    const runs = await t.pool.query(
      "SELECT status FROM sync.runs WHERE stream = 'invoices' AND status = 'partial'",
    );
    expect(runs.rows.length).toBeGreaterThan(0);
  });

  it('a 5xx after retries leaves the cursor where it was and the tables without partial writes', async () => {
    const { sim, client, config, account } = await open();
    const now = () => new Date(sim.clock.now());
    const first = await run(client, config, returnsStream, account, now());
    expect(first.status).toBe('succeeded');
    const cursor = await t.pool.query(
      "SELECT position_at, last_success_at FROM sync.cursors WHERE stream = 'returns' AND scope = $1",
      [account],
    );
    sim.advance(3 * 24 * 60);
    const before = await tuplesWritten(t.pool, ['returns', 'return_lines']);
    sim.setFaults({ operations: { 'GET Shipments/Returns': { http5xx: 1 } } });
    const failed = await run(client, config, returnsStream, account, now());
    sim.setFaults({});
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/5\d\d|HTTP/);
    expect(
      (
        await t.pool.query(
          "SELECT position_at, last_success_at FROM sync.cursors WHERE stream = 'returns' AND scope = $1",
          [account],
        )
      ).rows,
    ).toEqual(cursor.rows);
    expect(await tuplesWritten(t.pool, ['returns', 'return_lines'])).toBe(before);
    const runs = await t.pool.query(
      "SELECT error FROM sync.runs WHERE stream = 'returns' AND status = 'failed'",
    );
    expect(runs.rows.length).toBe(1);
  });

  it('an over-cap window is split and fully read', async () => {
    const { sim, client, config, account } = await open({ rowCap: 4 });
    const now = new Date(sim.clock.now());
    const expected = (sim.truth().shipmentUpdates[account] ?? []).length;
    expect(expected).toBeGreaterThan(8);
    const result = await run(
      client,
      {
        ...config,
        streams: { ...config.streams, shipments: { ...config.streams.shipments, windowSize: 24 * 60 } },
      },
      shipmentsStream,
      account,
      now,
    );
    expect(result.status).toBe('succeeded');
    expect(result.apiCalls).toBeGreaterThan(Math.ceil(expected / 4));
    const stored = await t.pool.query(
      'SELECT count(*)::int AS n FROM fulfillment.shipments WHERE account_number = $1',
      [account],
    );
    expect(stored.rows[0].n).toBe(expected);
  });

  it('a late update inside the lookback is caught by the next run', async () => {
    const opened = await open({ seed: 9 });
    const { sim, client, account } = opened;
    // Day-long windows for the first (30-day) load; the lookback is the default 2 h.
    const config = {
      ...opened.config,
      streams: {
        ...opened.config.streams,
        shipments: { ...opened.config.streams.shipments, windowSize: 24 * 60 },
      },
    };
    const now = () => new Date(sim.clock.now());
    await t.pool.query('DELETE FROM sync.cursors WHERE stream = $1', ['shipments']);
    expect((await run(client, config, shipmentsStream, account, now())).status).toBe('succeeded');
    sim.advance(30);
    // A scan that surfaces late: its update time lies an hour back, before the cursor.
    const shipment = [...sim.world.shipments.values()].find((s) => s.accountNumber === account);
    if (!shipment) throw new Error('the world has no shipment for the account');
    shipment.status = 'EXCEPTION';
    shipment.events.push({
      ...(shipment.events[0] ?? shipment.planned[0])!,
      eventTime: sim.clock.now() - 65 * 60_000,
      description: 'Late scan: damaged',
    } as never);
    shipment.updatedAt = sim.clock.now() - 60 * 60_000;
    const result = await run(client, config, shipmentsStream, account, now());
    expect(result.status).toBe('succeeded');
    const row = await t.pool.query('SELECT status_code FROM fulfillment.shipments WHERE container_id = $1', [
      shipment.containerId,
    ]);
    expect(row.rows[0]?.status_code).toBe('EXCEPTION');
    const events = await t.pool.query(
      "SELECT count(*)::int AS n FROM fulfillment.shipment_events WHERE container_id = $1 AND description = 'Late scan: damaged'",
      [shipment.containerId],
    );
    expect(events.rows[0].n).toBe(1);
  });

  it('an open return older than the re-read horizon is followed until it resolves', async () => {
    const { sim, client, config, account } = await open({ seed: 13 });
    const now = () => new Date(sim.clock.now());
    const old = [...sim.world.returns.values()].find((r) => r.accountNumber === account);
    if (!old) throw new Error('the world has no return for the account');
    // Returned 45 days ago and still open: only the open-status re-read can see it.
    old.returnDate = sim.clock.now() - 45 * 86_400_000;
    old.status = 'NEW';
    old.resolutionCode = null;
    await t.pool.query('DELETE FROM sync.cursors WHERE stream = $1', ['returns']);
    expect((await run(client, config, returnsStream, account, now())).status).toBe('succeeded');
    const status = async () =>
      (
        await t.pool.query(
          'SELECT processing_status_code FROM fulfillment.returns WHERE ship_return_id = $1',
          [old.shipReturnId],
        )
      ).rows[0]?.processing_status_code;
    expect(await status()).toBe('NEW');
    // It resolves: it leaves the open lists and lies beyond the 30 days, so it is fetched by key.
    old.status = 'RESOLVED';
    old.resolutionCode = 'REFUND';
    old.updatedAt = sim.clock.now();
    expect((await run(client, config, returnsStream, account, now())).status).toBe('succeeded');
    expect(await status()).toBe('RESOLVED');
  });
});
