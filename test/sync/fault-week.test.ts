import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import type { Config } from '../../src/config/types.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { allStreams } from '../../src/streams/index.ts';
import { runStream } from '../../src/sync/runStream.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { simulatorClient } from '../helpers/syncHarness.ts';
import { warehouseMismatches } from '../helpers/warehouseTruth.ts';

/**
 * The same simulated week twice: once against a clean upstream, once against one that answers 10%
 * of calls with a 5xx, 5% with a 429, lets 2% time out and sends 1% malformed bodies (a 200 that is
 * not JSON). After one clean sync the faulty side must equal the truth, miss no order, and have
 * stored no more events as history (suppressed) than the clean side: a fault must never turn a live
 * change into history, or drop an order for good.
 */

const logger = pino({ level: 'silent' });
const START = new Date('2026-04-06T08:00:00Z');
const HISTORY_DAYS = 2;
const STEP_HOURS = 8;
const DAYS = 7;
const FAULTS = { rates: { http5xx: 0.1, rateLimit: 0.05, timeout: 0.02, malformedJson: 0.01 } };

interface Side {
  t: TestDatabase;
  sim: RunningSimulator;
  client: FulfillmentClient;
  config: Config;
  failedRuns: number;
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
  // Short timeouts and no real waiting, so the faults cost the test little time.
  const client = simulatorClient(sim, config, {
    timeoutMs: 250,
    retry: { retries: 4, minTimeoutMs: 1, maxTimeoutMs: 5 },
    sleep: async () => {},
  });
  return { t, sim, client, config, failedRuns: 0 };
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
  const now = new Date(s.sim.clock.now());
  const world = s.sim.truth();
  const eventSink = createEventSink({ timezone: s.config.timezone, thresholds: s.config.events });
  for (const stream of allStreams()) {
    for (const id of stream.scopeKind === 'supplier' ? world.suppliers : world.accounts) {
      const result = await runStream({
        pool: s.t.pool,
        client: s.client,
        config: s.config,
        logger,
        stream,
        scope: { kind: stream.scopeKind, id },
        now,
        eventSink,
      });
      if (result.status === 'failed') s.failedRuns += 1;
    }
  }
}

const count = async (s: Side, sql: string) => Number((await s.t.pool.query(sql)).rows[0].n);

describe('a week of upstream faults', () => {
  it('ends, after one clean sync, equal to the truth with no order missing and no more history events than without faults', async () => {
    await Promise.all([syncAll(clean), syncAll(faulty)]);
    for (let hours = 0; hours < DAYS * 24; hours += STEP_HOURS) {
      clean.sim.advance(STEP_HOURS * 60);
      faulty.sim.advance(STEP_HOURS * 60);
      await Promise.all([syncAll(clean), syncAll(faulty)]);
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
    // The faults really happened, and some runs failed on them and were caught up later.
    expect(Object.values(tally).reduce((a, b) => a + b, 0)).toBeGreaterThan(50);
  });
});
