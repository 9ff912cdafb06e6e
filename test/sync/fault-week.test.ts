import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CallReport, FulfillmentClient } from '../../src/api/index.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import type { Config } from '../../src/config/types.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { simulatorClient, syncEveryScope } from '../helpers/syncHarness.ts';
import { warehouseMismatches } from '../helpers/warehouseTruth.ts';

/**
 * The same simulated week twice: once against a clean upstream, once against one that answers 10%
 * of calls with a 5xx, 5% with a 429, lets 2% time out and sends 1% malformed bodies (a 200 that is
 * not JSON), and whose shipment updates are down for one sync mid-week (so runs really fail and
 * must be caught up). After one clean sync the faulty side must equal the truth, miss no order,
 * and have stored no more events as history (suppressed) than the clean side: a fault must never
 * turn a live change into history, or drop an order for good.
 */

const logger = pino({ level: 'silent' });
const START = new Date('2026-04-06T08:00:00Z');
const HISTORY_DAYS = 2;
const STEP_HOURS = 8;
const DAYS = 7;
const FAULTS = { rates: { http5xx: 0.1, rateLimit: 0.05, timeout: 0.02, malformedJson: 0.01 } };
/** One sync during which every shipment-updates call fails, whatever the client retries. */
const OUTAGE = { ...FAULTS, operations: { 'GET Shipments/Updates': { http5xx: 1 } } };
const OUTAGE_AT_HOURS = 3 * 24;

interface Side {
  t: TestDatabase;
  sim: RunningSimulator;
  client: FulfillmentClient;
  config: Config;
  failedRuns: number;
  /** Every HTTP attempt the client made, as its `onCall` reports them. */
  calls: CallReport[];
}
let clean: Side;
let faulty: Side;

async function side(): Promise<Side> {
  const t = await createTestDatabase();
  const sim = await startSimulator({
    seed: 23,
    clock: 'manual',
    start: START,
    volume: { historyDays: HISTORY_DAYS, suppliers: 1, winesPerSupplier: 8 },
  });
  const config = loadConfig({
    DATABASE_URL: t.url,
    FULFILLMENT_SYNC_START: new Date(START.getTime() - HISTORY_DAYS * 86_400_000).toISOString(),
    FULFILLMENT_STREAMS: JSON.stringify({ shipments: { windowSize: STEP_HOURS * 60 + 180 } }),
  });
  const calls: CallReport[] = [];
  // Short timeouts and no real waiting, so the faults cost the test little time.
  const client = simulatorClient(sim, config, {
    timeoutMs: 250,
    retry: { retries: 4, minTimeoutMs: 1, maxTimeoutMs: 5 },
    sleep: async () => {},
    onCall: (report) => calls.push(report),
  });
  return { t, sim, client, config, failedRuns: 0, calls };
}

beforeAll(async () => {
  [clean, faulty] = await Promise.all([side(), side()]);
  faulty.sim.setFaults(FAULTS);
}, 120_000);
afterAll(async () => {
  for (const s of [clean, faulty]) {
    await s?.sim.close();
    await s?.t.close();
  }
});

async function syncAll(s: Side): Promise<void> {
  const eventSink = createEventSink({ timezone: s.config.timezone, thresholds: s.config.events });
  const failed = await syncEveryScope({ ...s, pool: s.t.pool, logger, eventSink });
  s.failedRuns += failed.length;
}

const count = async (s: Side, sql: string) => Number((await s.t.pool.query(sql)).rows[0].n);

describe('a week of upstream faults', () => {
  it('ends, after one clean sync, equal to the truth with no order missing and no more history events than without faults', async () => {
    await Promise.all([syncAll(clean), syncAll(faulty)]);
    for (let hours = 0; hours < DAYS * 24; hours += STEP_HOURS) {
      clean.sim.advance(STEP_HOURS * 60);
      faulty.sim.advance(STEP_HOURS * 60);
      if (hours === OUTAGE_AT_HOURS) faulty.sim.setFaults(OUTAGE);
      await Promise.all([syncAll(clean), syncAll(faulty)]);
      if (hours === OUTAGE_AT_HOURS) faulty.sim.setFaults(FAULTS);
    }
    faulty.sim.setFaults({});
    await syncAll(faulty);
    await syncAll(clean);

    const tally = faulty.sim.faultTally();
    expect(clean.failedRuns).toBe(0);
    expect(await warehouseMismatches(faulty.t.pool, faulty.sim.truth(), { namedOrdersOnly: true })).toEqual(
      [],
    );
    const orders = 'SELECT count(*)::int AS n FROM fulfillment.orders';
    expect(await count(faulty, orders)).toBe(await count(clean, orders));
    expect(await count(faulty, 'SELECT count(*)::int AS n FROM sync.detail_requests')).toBe(0);
    const suppressed = 'SELECT count(*)::int AS n FROM sync.events WHERE suppressed';
    expect(await count(faulty, suppressed)).toBeLessThanOrEqual(await count(clean, suppressed));
    const live = 'SELECT count(*)::int AS n FROM sync.events WHERE NOT suppressed';
    expect(await count(faulty, live)).toBeGreaterThan(0);

    // Every kind of fault really happened, malformed bodies included, and the client retried.
    for (const kind of Object.keys(FAULTS.rates)) expect(tally[kind] ?? 0, kind).toBeGreaterThan(0);
    const malformed = faulty.calls.filter((c) => c.error?.kind === 'invalid-body');
    expect(malformed.length).toBeGreaterThan(0);
    expect(faulty.calls.some((c) => c.attempt > 1)).toBe(true);
    // Runs failed on them (at least the outage's), and each was caught up by a later run.
    expect(faulty.failedRuns).toBeGreaterThan(0);
    const failed = await faulty.t.pool.query("SELECT DISTINCT stream FROM sync.runs WHERE status = 'failed'");
    expect(failed.rows.map((r) => r.stream)).toContain('shipments');
    const notCaughtUp = await faulty.t.pool.query(
      `SELECT f.stream, f.scope FROM sync.runs f
        WHERE f.status = 'failed' AND NOT EXISTS (
          SELECT 1 FROM sync.runs s WHERE s.stream = f.stream AND s.scope = f.scope AND s.id > f.id
             AND s.status IN ('succeeded', 'partial'))`,
    );
    expect(notCaughtUp.rows).toEqual([]);
    // A week of faulty syncs: under a minute alone, longer beside other test files on a shared machine.
  }, 240_000);
});
