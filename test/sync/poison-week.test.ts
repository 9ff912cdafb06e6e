import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import type { Config } from '../../src/config/types.ts';
import { createEventSink } from '../../src/events/sink.ts';
import {
  excludedKeys,
  type PoisonedRecord,
  type PoisonKind,
  type PoisonReport,
  type RunningSimulator,
  startSimulator,
  truthAsSynced,
} from '../../src/simulator/index.ts';
import type { Row } from '../../src/sync/types.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { simulatorClient, syncEveryScope } from '../helpers/syncHarness.ts';
import { warehouseMismatches } from '../helpers/warehouseTruth.ts';

/**
 * The poison scenario over a simulated week: a NUL and a lone surrogate in text, an IN whose detail
 * is malformed while its list row moves, an IN and a product whose detail is missing, a malformed
 * product detail, an order whose detail always answers 503, a wrong-typed inventory row beside a
 * SKU that really vanishes, an int32 overflow, an 80 KB key, a record nested 8,000 levels deep, and
 * 3% of calls throttled with "Too many requests". No run fails; the warehouse converges to the
 * truth except the quarantined records, each of which is in sync.rejected_records with its reason.
 */

const logger = pino({ level: 'silent' });
const START = new Date('2026-03-02T08:00:00Z');
const HISTORY_DAYS = 2;
const STEP_HOURS = 8;
const DAYS = 7;

let t: TestDatabase;
let sim: RunningSimulator;
let client: FulfillmentClient;
let config: Config;
const failures: string[] = [];

beforeAll(async () => {
  t = await createTestDatabase();
  sim = await startSimulator({
    seed: 11,
    clock: 'manual',
    start: START,
    scenario: 'poison',
    volume: { historyDays: HISTORY_DAYS, suppliers: 1, winesPerSupplier: 8 },
  });
  config = loadConfig({
    DATABASE_URL: t.url,
    FULFILLMENT_SYNC_START: new Date(START.getTime() - HISTORY_DAYS * 86_400_000).toISOString(),
    FULFILLMENT_STREAMS: JSON.stringify({ shipments: { windowSize: STEP_HOURS * 60 + 180 } }),
  });
  // Throttling is answered with Retry-After: 1; the test does not need to sit through the seconds.
  client = simulatorClient(sim, config, {
    retry: { retries: 6, minTimeoutMs: 1, maxTimeoutMs: 5 },
    sleep: async () => {},
  });
}, 120_000);
afterAll(async () => {
  await sim?.close();
  await t?.close();
});

async function syncAll(): Promise<void> {
  const eventSink = createEventSink({ timezone: config.timezone, thresholds: config.events });
  const failed = await syncEveryScope({ pool: t.pool, client, config, logger, sim, eventSink });
  for (const r of failed) failures.push(`${r.stream} ${r.scope.id}: ${r.error}`);
}

/** The key of a warehouse row as the poison report writes it, by table family. */
function reportKey(table: string, row: Row): { stream: string; key: string } | undefined {
  const k = (...columns: string[]) => columns.map((c) => String(row[c] ?? '')).join('/');
  if (table.startsWith('shipment')) return { stream: 'shipments', key: k('container_id') };
  if (table === 'transfers_in' || table.startsWith('transfer_in_'))
    return { stream: 'transfers_in', key: k('supplier_id', 'order_number') };
  if (table.startsWith('product')) return { stream: 'products', key: k('supplier_id', 'sku') };
  if (table.startsWith('order')) return { stream: 'orders', key: k('account_number', 'order_number') };
  if (table === 'inventory')
    return { stream: 'inventory', key: k('supplier_id', 'warehouse_code', 'sub_inventory_code', 'sku') };
  if (table === 'invoices') return { stream: 'invoices', key: k('invoice_number') };
  if (table.startsWith('return')) return { stream: 'returns', key: k('ship_return_id') };
  return undefined;
}

describe('the poison week', () => {
  let report: PoisonReport;

  it('runs every day without a failed run and converges to the truth, except the quarantined records', async () => {
    await syncAll();
    for (let hours = 0; hours < DAYS * 24; hours += STEP_HOURS) {
      sim.advance(STEP_HOURS * 60);
      await syncAll();
    }
    await syncAll();
    expect(failures).toEqual([]);
    report = sim.poison() as PoisonReport;
    expect(report.records.length).toBeGreaterThanOrEqual(11);
    const excluded = excludedKeys(report, sim.clock.now());
    const truth = truthAsSynced(sim.truth(), report);
    const mismatches = await warehouseMismatches(t.pool, truth, {
      namedOrdersOnly: true,
      ignore: (table, row) => {
        const named = reportKey(table, row);
        return named !== undefined && excluded[named.stream as keyof typeof excluded].has(named.key);
      },
    });
    expect(mismatches).toEqual([]);
  });

  it('records each quarantined or repaired record in sync.rejected_records with its reason, once', async () => {
    const rows = (
      await t.pool.query<RejectedRow>(
        'SELECT stream, scope, kind, record_key, reason, occurrences FROM sync.rejected_records',
      )
    ).rows;
    for (const poisoned of report.records) {
      const label = `${poisoned.kind} ${poisoned.stream} ${poisoned.key.slice(0, 60)}`;
      const mine = rows.filter((r) => r.stream === poisoned.stream && namesRecord(r, poisoned));
      if (poisoned.expected === 'detail-refetch') {
        // Retried until it heals, never given up on.
        expect(
          mine.filter((r) => r.kind === 'detail'),
          label,
        ).toEqual([]);
        continue;
      }
      const expected = EXPECTED_ROW[poisoned.kind](poisoned);
      expect(
        mine.map((r) => ({ kind: r.kind, reason: r.reason })),
        label,
      ).toEqual([{ kind: expected.kind, reason: expect.stringMatching(expected.reason) }]);
    }
    // A bad record re-read on every run is counted on its row, not stored again.
    const repeated = await t.pool.query(
      `SELECT stream, scope, kind, record_key, left(reason, 80) AS reason_start, count(*)::int AS rows
         FROM sync.rejected_records GROUP BY 1, 2, 3, 4, reason HAVING count(*) > 1`,
    );
    expect(repeated.rows).toEqual([]);
    expect(Math.max(...rows.map((r) => r.occurrences))).toBeGreaterThan(1);
  });
});

interface RejectedRow {
  stream: string;
  scope: string;
  kind: string;
  record_key: string | null;
  reason: string;
  occurrences: number;
}

/**
 * Whether a sync.rejected_records row is about this poisoned record: its key as the engine stores
 * it (a detail failure by the detail queue's key, without the scope; a key too long to index cut
 * to 200 characters).
 */
function namesRecord(row: RejectedRow, poisoned: PoisonedRecord): boolean {
  if (row.scope !== poisoned.scope || row.record_key === null) return false;
  const key = poisoned.key;
  const unscoped = key.startsWith(`${poisoned.scope}/`) ? key.slice(poisoned.scope.length + 1) : key;
  return [key, unscoped, `${key.slice(0, 200)}…`].includes(row.record_key);
}

/** The row each kind of poison must leave: its kind and its reason. */
const EXPECTED_ROW: Record<PoisonKind, (p: PoisonedRecord) => { kind: string; reason: RegExp }> = {
  nul: () => ({ kind: 'repaired', reason: /^NUL removed from events\.\d+\.description$/ }),
  'lone-surrogate': (p) => ({
    kind: 'repaired',
    reason: new RegExp(`^lone surrogate replaced in ${literal(p.field)}$`),
  }),
  'missing-detail': () => ({ kind: 'detail', reason: /^detail kept failing .*: HTTP 404: \w+ not found/ }),
  'malformed-detail': () => ({
    kind: 'detail',
    reason: /^detail kept failing .*: detail rejected by its schema: sellingInfos\.0\.retailPrice: /,
  }),
  'detail-503': () => ({ kind: 'detail', reason: /^detail kept failing .*: HTTP 503: Service Unavailable/ }),
  'wrong-type': (p) => ({
    kind: 'quarantined',
    reason: new RegExp(`^${literal(p.field)}: .*expected number, received string$`),
  }),
  'int-overflow': (p) => ({
    kind: 'quarantined',
    reason: new RegExp(`^${literal(p.field)}: outside the range of its integer column`),
  }),
  'oversized-key': () => ({
    kind: 'quarantined',
    reason: /^key is \d+ bytes long \(at most 2000 can be indexed\)$/,
  }),
  'deep-nesting': () => ({
    kind: 'quarantined',
    reason: /^nested deeper than 32 levels: refused without parsing$/,
  }),
};

/** A pattern matching `text` exactly. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
