import { randomBytes } from 'node:crypto';
import { formatInTimeZone } from 'date-fns-tz';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guideQueries } from '../../src/analytics/guideQueries.ts';
import { refreshAllAnalytics } from '../../src/analytics/refresh.ts';
import { grantReadAccess } from '../../src/db/readerRole.ts';
import { quoteIdent } from '../../src/db/urls.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import * as expected from '../helpers/analyticsTruth.ts';
import { type AnswerRow, addDays, pacificDay, type SyncSnapshot } from '../helpers/analyticsTruth.ts';
import { daysOfCover } from '../helpers/analyticsTruthCover.ts';
import { returnRateMonthly } from '../helpers/analyticsTruthMonthly.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { expectedFreshness } from '../helpers/freshnessTruth.ts';
import { type SimulatedWeek, syncSimulatedWeek } from '../helpers/simulatedWeek.ts';

/**
 * The analyst's guide (docs/analytics.md) answers its questions: a simulated week is synced as the
 * worker would (history before the install included), the analytics views refreshed, and every
 * query of the guide run as the reader role must give what the simulator's truth says, computed
 * from the truth alone (test/helpers/analyticsTruth.ts). The world ends at about the real now, so
 * the guide's queries relative to current_date select it.
 */

const HOUR = 3_600_000;
const suffix = randomBytes(4).toString('hex');
const reader = `fs_guide_reader_${suffix}`;
const password = randomBytes(12).toString('hex');

let week: SimulatedWeek;
let t: TestDatabase;
let sim: RunningSimulator;
let asReader: pg.Client;
let syncs: SyncSnapshot[];
/** When the last sync ended, and the refresh after it (the real clock: the worker's). */
let lastSyncEnded: number;
let syncedBy: number;

beforeAll(async () => {
  week = await syncSimulatedWeek({ seed: 19, days: 7, historyDays: 4, stepHours: 8, winesPerSupplier: 8 });
  ({ t, sim, syncs } = week);
  lastSyncEnded = Date.now();
  const refreshed = await refreshAllAnalytics(t.pool);
  if (refreshed.some((r) => r.status !== 'refreshed')) throw new Error(JSON.stringify(refreshed));
  syncedBy = Date.now();
  asReader = await connectAsReader();
}, 300_000);

afterAll(async () => {
  await asReader?.end().catch(() => {});
  if (t) {
    await t.pool.query(`DROP OWNED BY ${quoteIdent(reader)}`).catch(() => {});
    await t.pool.query(`DROP ROLE IF EXISTS ${quoteIdent(reader)}`).catch(() => {});
  }
  await week?.close();
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
  it('has the fourteen questions, each with a query (the last with two)', () => {
    expect([...queries.keys()]).toEqual([
      'slow-by-carrier',
      'carrier-weekly',
      'sla-by-warehouse',
      'order-lifecycle',
      'return-rate-by-sku',
      'return-reasons',
      'return-rate-by-warehouse',
      'return-rate-monthly',
      'daily-inventory',
      'stock-outs',
      'days-of-cover',
      'open-ins',
      'invoice-aging',
      'data-as-of',
      'freshness',
    ]);
  });

  it('1. slow and failing shipments per carrier', async () => {
    const { today } = await databaseNow();
    const got = await answer('slow-by-carrier');
    const want = expected.slowByCarrier(sim.truth(), addDays(today, -28));
    expect(got.length).toBeGreaterThan(0);
    expect(sorted(got)).toEqual(sorted(want));
    expect(want.some((r) => (r.delivered as number) > 0 && (r.had_exception as number) > 0)).toBe(true);
  });

  it('3. shipments after their SLA date per warehouse, as the SLA status says', async () => {
    const { today } = await databaseNow();
    const got = await answer('sla-by-warehouse');
    const want = expected.slaByWarehouse(sim.truth(), addDays(today, -28));
    expect(sorted(got)).toEqual(sorted(want));
    // The week has misses, and the model and the API's status agree on every one.
    expect(got.some((r) => (r.shipped_after_sla as number) > 0)).toBe(true);
    expect(got.every((r) => r.shipped_after_sla === r.sla_missed)).toBe(true);
  });

  it('2. carrier performance per week', async () => {
    const { today } = await databaseNow();
    const got = await answer('carrier-weekly');
    expect(got.length).toBeGreaterThan(1);
    expect(sorted(got)).toEqual(sorted(expected.carrierWeekly(sim.truth(), addDays(today, -84))));
  });

  it('4. order lifecycle per warehouse', async () => {
    const { now } = await databaseNow();
    const got = await answer('order-lifecycle');
    expect(got.length).toBeGreaterThan(0);
    expect(sorted(got)).toEqual(sorted(expected.orderLifecycle(sim.truth(), now - 30 * 24 * HOUR)));
  });

  it('5. return rate per SKU equals units returned over units shipped in the truth', async () => {
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

  it('6. returns per reason', async () => {
    const got = await answer('return-reasons');
    expect(got.length).toBeGreaterThan(0);
    expect(sorted(got)).toEqual(sorted(expected.returnReasons(sim.truth())));
  });

  it('7. return rate per warehouse', async () => {
    const got = await answer('return-rate-by-warehouse');
    expect(sorted(got)).toEqual(sorted(expected.returnRateByWarehouse(sim.truth())));
  });

  it('9. daily inventory reaches back over the history before the install, as the truth had it', async () => {
    // Its days run to the Pacific today, which is not the session's current_date from 00:00 to 08:00 UTC.
    const today = pacificDay((await databaseNow()).now);
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

  it('8. return rate per month', async () => {
    const { today } = await databaseNow();
    const got = await answer('return-rate-monthly');
    // date_trunc('month', current_date) - interval '12 months': the same month a year ago.
    const want = returnRateMonthly(sim.truth(), `${Number(today.slice(0, 4)) - 1}${today.slice(4, 7)}-01`);
    expect(got.length).toBeGreaterThan(0);
    expect(sorted(got)).toEqual(sorted(want));
    expect(got.some((r) => (r.units_returned as number) > 0)).toBe(true);
  });

  it('10. stock-out spells, a row first seen at zero among them', async () => {
    const { now } = await databaseNow();
    const got = await answer('stock-outs');
    const want = expected.stockOuts(syncs, now - 90 * 24 * HOUR, now, 'FG');
    // The week did run something out, so the comparison is not between two empty lists.
    expect(want.length).toBeGreaterThan(0);
    const withoutHours = (rows: readonly AnswerRow[]) => sorted(rows.map(({ hours_out: _, ...r }) => r));
    expect(withoutHours(got)).toEqual(withoutHours(want));
    // Ongoing spells run up to now(): the hours agree to within the time between the two nows.
    for (const row of want) {
      const found = got.find((r) => r.sku === row.sku && r.warehouse_code === row.warehouse_code);
      expect(Math.abs((found?.hours_out as number) - (row.hours_out as number))).toBeLessThanOrEqual(0.2);
    }
    // Rows at zero when a sync first saw them (at the install, or new later; QA and damaged stock
    // is never available to sell) are stock-outs too, marked as such.
    const firstSeen = new Map<string, boolean>();
    for (const snapshot of syncs) {
      for (const [supplier, rows] of Object.entries(snapshot.inventory)) {
        for (const r of rows) {
          const key = `${supplier}|${r.warehouseCode}|${r.subInventoryCode}|${r.sku}`;
          if (!firstSeen.has(key)) firstSeen.set(key, (r.qtyAvailableToSell ?? 1) <= 0);
        }
      }
    }
    const firstSeenOut = [...firstSeen.values()].filter(Boolean).length;
    expect(firstSeenOut).toBeGreaterThan(0);
    const marked = await asReader.query<{ n: string }>(
      'SELECT count(*) AS n FROM analytics.stock_out_spells WHERE out_when_first_seen',
    );
    expect(Number(marked.rows[0]!.n)).toBe(firstSeenOut);
  });

  it('11. days of cover per SKU and warehouse, and what is out of stock now', async () => {
    const { now } = await databaseNow();
    const got = await answer('days-of-cover');
    const want = daysOfCover(sim.truth(), syncs, pacificDay(now));
    expect(got.some((r) => (r.qty_available_to_sell as number) <= 0)).toBe(true);
    expect(got.some((r) => typeof r.days_of_cover === 'number' && r.days_of_cover > 0)).toBe(true);
    expect(sorted(got)).toEqual(sorted(want));
  });

  it('12. open inbound transfers with their age', async () => {
    const { now } = await databaseNow();
    const got = await answer('open-ins');
    expect(got.length).toBeGreaterThan(0);
    expect(sorted(got)).toEqual(sorted(expected.openTransfersIn(sim.truth(), now)));
  });

  it('13. invoice aging', async () => {
    const { now } = await databaseNow();
    const got = await answer('invoice-aging');
    expect(got.length).toBeGreaterThan(0);
    expect(sorted(got)).toEqual(sorted(expected.invoiceAging(sim.truth(), now)));
  });

  it('14. freshness: every relation, as of the refresh after the last sync and the cursors it left', async () => {
    const { now } = await databaseNow();
    const got = await answer('freshness');
    const want = await expectedFreshness(t.pool);
    expect(got.map((r) => r.relation as string).sort()).toEqual(want.map((r) => r.relation));
    for (const row of got) {
      const truth = want.find((w) => w.relation === row.relation)!;
      expect((row.source_data_as_of as Date | null)?.getTime(), row.relation as string).toBe(
        truth.sourceDataAsOf,
      );
      const refreshed = (row.refreshed_as_of as Date).getTime();
      if (truth.kept) {
        expect(refreshed).toBeGreaterThanOrEqual(lastSyncEnded);
        expect(refreshed).toBeLessThanOrEqual(syncedBy);
      } else expect(Math.abs(refreshed - now)).toBeLessThan(1000);
      expect(
        Math.abs((row.lag_seconds as number) - (now - truth.sourceDataAsOf!) / 1000),
      ).toBeLessThanOrEqual(1);
    }
    const caption = await answer('data-as-of');
    const shipped = got.find((r) => r.relation === 'analytics.shipment_facts')!;
    const day = formatInTimeZone(
      shipped.source_data_as_of as Date,
      'America/Los_Angeles',
      'yyyy-MM-dd HH:mm',
    );
    expect(caption).toEqual([{ caption: `data as of ${day} Pacific`, lag_seconds: expect.any(Number) }]);
  });
});
