import { randomBytes } from 'node:crypto';
import pg from 'pg';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guideQueries } from '../../src/analytics/guideQueries.ts';
import { refreshAllAnalytics } from '../../src/analytics/refresh.ts';
import type { FulfillmentClient } from '../../src/api/index.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import type { Config } from '../../src/config/types.ts';
import { grantReadAccess } from '../../src/db/readerRole.ts';
import { quoteIdent } from '../../src/db/urls.ts';
import { createEventSink } from '../../src/events/sink.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import * as expected from '../helpers/analyticsTruth.ts';
import { type AnswerRow, addDays, type SyncSnapshot } from '../helpers/analyticsTruth.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { simulatorClient, syncEveryScope } from '../helpers/syncHarness.ts';

/**
 * The analyst's guide (docs/analytics.md) answers its questions: a simulated week is synced as the
 * worker would (history before the install included), the analytics views refreshed, and every
 * query of the guide run as the reader role must give what the simulator's truth says, computed
 * from the truth alone (test/helpers/analyticsTruth.ts). The world ends at about the real now, so
 * the guide's queries relative to current_date select it.
 */

const logger = pino({ level: 'silent' });
const HOUR = 3_600_000;
const HISTORY_DAYS = 4;
const DAYS = 7;
const STEP_HOURS = 8;
// The week ends at the last full hour before the real now.
const START = new Date(Math.floor(Date.now() / HOUR) * HOUR - DAYS * 24 * HOUR);
const suffix = randomBytes(4).toString('hex');
const reader = `fs_guide_reader_${suffix}`;
const password = randomBytes(12).toString('hex');

let t: TestDatabase;
let sim: RunningSimulator;
let client: FulfillmentClient;
let config: Config;
let asReader: pg.Client;
const syncs: SyncSnapshot[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  sim = await startSimulator({
    seed: 19,
    clock: 'manual',
    start: START,
    volume: { historyDays: HISTORY_DAYS, suppliers: 1, winesPerSupplier: 8 },
  });
  config = loadConfig({
    DATABASE_URL: t.url,
    // The install reads back over the world's whole history (inventory activity included).
    FULFILLMENT_SYNC_START: new Date(START.getTime() - HISTORY_DAYS * 24 * HOUR).toISOString(),
    FULFILLMENT_STREAMS: JSON.stringify({
      transfers_in: { windowSize: 91 },
      returns: { windowSize: 31 },
      shipments: { windowSize: STEP_HOURS * 60 + 180 },
    }),
  });
  client = simulatorClient(sim, config);
  const eventSink = createEventSink({ timezone: config.timezone, thresholds: config.events });
  for (let hour = 0; hour <= DAYS * 24; hour += STEP_HOURS) {
    if (hour > 0) sim.advance(STEP_HOURS * 60);
    const failed = await syncEveryScope({ pool: t.pool, client, config, logger, sim, eventSink });
    if (failed.length > 0) throw new Error(`sync failed: ${failed.map((f) => f.error).join('; ')}`);
    syncs.push({ at: sim.clock.now(), inventory: sim.truth().ownedInventory });
  }
  const refreshed = await refreshAllAnalytics(t.pool);
  if (refreshed.some((r) => r.status !== 'refreshed')) throw new Error(JSON.stringify(refreshed));
  asReader = await connectAsReader();
}, 300_000);

afterAll(async () => {
  await asReader?.end().catch(() => {});
  if (t) {
    await t.pool.query(`DROP OWNED BY ${quoteIdent(reader)}`).catch(() => {});
    await t.pool.query(`DROP ROLE IF EXISTS ${quoteIdent(reader)}`).catch(() => {});
  }
  await sim?.close();
  await t?.close();
});

/** The reader role as FULFILLMENT_READER_ROLE makes it, given a login for the test. */
async function connectAsReader(): Promise<pg.Client> {
  const admin = await t.pool.connect();
  try {
    await grantReadAccess(admin, reader);
    await admin.query(`ALTER ROLE ${quoteIdent(reader)} LOGIN PASSWORD '${password}'`);
  } finally {
    admin.release();
  }
  const url = new URL(t.url);
  url.username = reader;
  url.password = password;
  // Dates as the calendar days they are (pg would make them local midnights).
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') =>
      oid === 1082 ? (v: string) => v : pg.types.getTypeParser(oid, format),
  };
  const connection = new pg.Client({ connectionString: url.toString(), types });
  await connection.connect();
  return connection;
}

const queries = new Map(guideQueries().map((q) => [q.id, q.sql]));

/** Runs the guide's query `id` as the reader; numbers (counts and numerics arrive as text) as numbers. */
async function answer(id: string): Promise<AnswerRow[]> {
  const sql = queries.get(id);
  if (!sql) throw new Error(`docs/analytics.md has no query ${id}`);
  const { rows } = await asReader.query(sql);
  return rows.map((row: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(row).map(([k, v]) => [
        k,
        typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : (v as AnswerRow[string]),
      ]),
    ),
  );
}

/** Rows in a stable order, for comparing answers whose order the query leaves to ties. */
function sorted(rows: readonly AnswerRow[]): AnswerRow[] {
  return [...rows].sort((a, b) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1));
}

async function databaseNow(): Promise<{ now: number; today: string }> {
  const { rows } = await asReader.query<{ now: Date; today: string }>(
    'SELECT now() AS now, current_date::text AS today',
  );
  return { now: rows[0]!.now.getTime(), today: rows[0]!.today };
}

describe("the analyst's guide (docs/analytics.md) over a simulated week, as the reader role", () => {
  it('has the ten questions, each with a query', () => {
    expect([...queries.keys()]).toEqual([
      'late-by-carrier',
      'carrier-weekly',
      'order-lifecycle',
      'return-rate-by-sku',
      'return-reasons',
      'return-rate-by-warehouse',
      'daily-inventory',
      'stock-outs',
      'open-ins',
      'invoice-aging',
    ]);
  });

  it('1. late and slow shipments per carrier', async () => {
    const { today } = await databaseNow();
    const got = await answer('late-by-carrier');
    const want = expected.lateByCarrier(sim.truth(), addDays(today, -28));
    expect(got.length).toBeGreaterThan(0);
    expect(sorted(got)).toEqual(sorted(want));
    expect(want.some((r) => (r.delivered as number) > 0 && (r.had_exception as number) > 0)).toBe(true);
  });

  it('2. carrier performance per week', async () => {
    const { today } = await databaseNow();
    const got = await answer('carrier-weekly');
    expect(got.length).toBeGreaterThan(1);
    expect(sorted(got)).toEqual(sorted(expected.carrierWeekly(sim.truth(), addDays(today, -84))));
  });

  it('3. order lifecycle per warehouse', async () => {
    const { now } = await databaseNow();
    const got = await answer('order-lifecycle');
    expect(got.length).toBeGreaterThan(0);
    expect(sorted(got)).toEqual(sorted(expected.orderLifecycle(sim.truth(), now - 30 * 24 * HOUR)));
  });

  it('4. return rate per SKU equals units returned over units shipped in the truth', async () => {
    const want = expected
      .returnRateBySku(sim.truth())
      .filter((r) => (r.units_shipped as number) > 0)
      .sort(
        (a, b) =>
          (b.return_rate as number) - (a.return_rate as number) ||
          String(a.account_number).localeCompare(String(b.account_number)) ||
          String(a.sku).localeCompare(String(b.sku)),
      )
      .slice(0, 10);
    const got = await answer('return-rate-by-sku');
    expect(got.map((r) => r.return_rate)).toEqual(want.map((r) => r.return_rate));
    expect(sorted(got)).toEqual(sorted(want));
    expect((got[0]?.units_returned as number) > 0).toBe(true);
  });

  it('5. returns per reason', async () => {
    const got = await answer('return-reasons');
    expect(got.length).toBeGreaterThan(0);
    expect(sorted(got)).toEqual(sorted(expected.returnReasons(sim.truth())));
  });

  it('6. return rate per warehouse', async () => {
    const got = await answer('return-rate-by-warehouse');
    expect(sorted(got)).toEqual(sorted(expected.returnRateByWarehouse(sim.truth())));
  });

  it('7. daily inventory reaches back over the history before the install, as the truth had it', async () => {
    const { today } = await databaseNow();
    const truth = sim.truth();
    const firstDay = truth.inventoryActivity.SUP100!.map((a) => a.activityDate).sort()[0]!;
    const got = await answer('daily-inventory');
    // The simulator's history days are all there, reconstructed, before the first sync's day.
    const installDay = got.find((r) => r.reconstructed === false)?.day as string;
    expect(got[0]?.day).toBe(firstDay);
    expect(installDay > firstDay).toBe(true);
    expect(got.filter((r) => (r.day as string) < installDay).every((r) => r.reconstructed === true)).toBe(
      true,
    );
    expect(sorted(got)).toEqual(sorted(expected.dailyInventory(truth, syncs, '1W003', firstDay, today)));
  });

  it('8. stock-out spells, and none for a row first seen at zero', async () => {
    const { now } = await databaseNow();
    const got = await answer('stock-outs');
    const want = expected.stockOuts(syncs, now - 90 * 24 * HOUR, now);
    // The week did run something out, so the comparison is not between two empty lists.
    expect(want.length).toBeGreaterThan(0);
    const withoutHours = (rows: readonly AnswerRow[]) => sorted(rows.map(({ hours_out: _, ...r }) => r));
    expect(withoutHours(got)).toEqual(withoutHours(want));
    // Ongoing spells run up to now(): the hours agree to within the time between the two nows.
    for (const row of want) {
      const found = got.find((r) => r.sku === row.sku && r.warehouse_code === row.warehouse_code);
      expect(Math.abs((found?.hours_out as number) - (row.hours_out as number))).toBeLessThanOrEqual(0.2);
    }
    // Rows first seen out of stock (QA and damaged stock is never available to sell) count none.
    const firstSeenOut = Object.values(syncs[0]!.inventory)
      .flat()
      .filter((r) => (r.qtyAvailableToSell ?? 1) <= 0);
    expect(firstSeenOut.length).toBeGreaterThan(0);
    const current = await asReader.query<{ n: string }>(
      `SELECT sum(stock_outs_30d) AS n FROM fulfillment.inventory_current WHERE sub_inventory_code <> 'FG'`,
    );
    expect(Number(current.rows[0]!.n)).toBe(0);
  });

  it('9. open inbound transfers with their age', async () => {
    const { now } = await databaseNow();
    const got = await answer('open-ins');
    expect(got.length).toBeGreaterThan(0);
    expect(sorted(got)).toEqual(sorted(expected.openTransfersIn(sim.truth(), now)));
  });

  it('10. invoice aging', async () => {
    const { now } = await databaseNow();
    const got = await answer('invoice-aging');
    expect(got.length).toBeGreaterThan(0);
    expect(sorted(got)).toEqual(sorted(expected.invoiceAging(sim.truth(), now)));
  });
});
