import pg from 'pg';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/loadConfig.ts';
import type { RetentionSettings } from '../../src/config/types.ts';
import { metrics } from '../../src/http/metrics.ts';
import { readOldestKept } from '../../src/retention/oldestKept.ts';
import { prune } from '../../src/retention/prune.ts';
import { PRUNE_LOCK_KEY } from '../../src/retention/pruneLock.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { bookkeepingKeys, daysAgo, seedBookkeeping } from './seed.ts';

const DEFAULTS: RetentionSettings = loadConfig({}).retention;
const now = new Date('2026-11-26T12:00:00Z');
const databases: TestDatabase[] = [];
let t: TestDatabase;

beforeEach(async () => {
  t = await createTestDatabase();
  databases.push(t);
  await seedBookkeeping(t.pool, now);
});
afterAll(async () => {
  for (const d of databases) await d.close();
});

/** Everything the default rules keep of the seed, table by table. */
const KEPT_BY_DEFAULTS = {
  runs: ['2', '4', '6', '8'],
  events: [
    'ev_dispatched_lately',
    'ev_pending_old',
    'ev_recent',
    'ev_replay_pending_old',
    'ev_undispatched_old',
  ],
  states: [
    'ep_a/ev_pending_old/',
    'ep_a/ev_recent/',
    'ep_a/ev_replay_pending_old/',
    'ep_a/ev_replay_pending_old/rpl_1',
    'ep_b/ev_pending_old/',
  ],
  attempts: ['3', '4'],
  rejected: ['f-recent:null'],
  detailRequests: ['W-new-quarantine', 'W-still-wanted'],
  backfillWindows: ['bf_new'],
  inventoryHistory: ['SKU-1'],
};

function removedOf(outcome: Awaited<ReturnType<typeof prune>>): Record<string, number> {
  if (outcome.kind !== 'pruned') throw new Error('the prune was skipped');
  return Object.fromEntries(outcome.report.tables.map((x) => [x.table, x.removed]));
}

const EXPECTED_REMOVED = {
  'sync.webhook_deliveries': 2, // #2 by age (40 days), #1 with its event
  'sync.events': 2,
  'sync.webhook_delivery_states': 1,
  'sync.runs': 4,
  'sync.rejected_records': 1,
  'sync.detail_requests': 1,
  'sync.backfill_windows': 1,
};

describe('prune with the default retention', () => {
  it('removes what each rule lets go and keeps what must stay, in batches of any size', async () => {
    const outcome = await prune(t.pool, { ...DEFAULTS, batchSize: 1 }, { now });
    expect(removedOf(outcome)).toEqual(EXPECTED_REMOVED);
    // Runs: the last of each stream and scope and the cursor's stay; a rejected record whose run
    // went keeps its row, with run_id emptied. Events: pending delivery (relay or replay) and
    // undispatched ones stay; a pruned event takes its states and attempts with it.
    expect(await bookkeepingKeys(t.pool)).toEqual(KEPT_BY_DEFAULTS);
    // A second prune finds nothing more.
    expect(Object.values(removedOf(await prune(t.pool, DEFAULTS, { now }))).every((n) => n === 0)).toBe(true);
  });

  it('a dry run counts the same rows and changes nothing', async () => {
    const before = await bookkeepingKeys(t.pool);
    const dry = await prune(t.pool, DEFAULTS, { now, dryRun: true });
    expect(removedOf(dry)).toEqual(EXPECTED_REMOVED);
    expect(await bookkeepingKeys(t.pool)).toEqual(before);
  });

  it('counts what it removes in fulfillment_retention_pruned_rows_total per table (a dry run adds nothing)', async () => {
    const read = async () =>
      Object.fromEntries(
        (await metrics.prunedRows.get()).values.map((v) => [String(v.labels.table), v.value]),
      );
    const before = await read();
    await prune(t.pool, DEFAULTS, { now, dryRun: true });
    expect(await read()).toEqual(before);
    await prune(t.pool, DEFAULTS, { now });
    const after = await read();
    for (const [table, n] of Object.entries(EXPECTED_REMOVED)) {
      expect(after[table] ?? 0, table).toBe((before[table] ?? 0) + n);
    }
    const runs = (await metrics.pruneRuns.get()).values.find((v) => v.labels.outcome === 'completed');
    expect(runs?.value).toBeGreaterThanOrEqual(1);
  });

  it('a setting of 0 keeps that table forever', async () => {
    const outcome = await prune(t.pool, { ...DEFAULTS, runsDays: 0, eventsDays: 0 }, { now });
    expect(removedOf(outcome)['sync.runs']).toBe(0);
    expect(removedOf(outcome)['sync.events']).toBe(0);
    const keys = await bookkeepingKeys(t.pool);
    expect(keys.runs).toEqual(['1', '2', '3', '4', '5', '6', '7', '8']);
    expect(keys.events).toHaveLength(7);
    // Attempts have their own 30 days: #1 (100 days) goes by age although its event stays.
    expect(keys.attempts).toEqual(['3', '4']);
  });

  it('never removes the newest run of a stream and scope, however old', async () => {
    await prune(t.pool, { ...DEFAULTS, runsDays: 1 }, { now: daysAgo(now, -400) });
    expect((await bookkeepingKeys(t.pool)).runs).toEqual(['2', '4', '6', '8']);
  });

  it('status reads the oldest row kept per table', async () => {
    await prune(t.pool, DEFAULTS, { now });
    const oldest = Object.fromEntries(
      (await readOldestKept(t.pool, DEFAULTS)).map((o) => [o.table, [o.oldestAt, o.retentionDays]]),
    );
    expect(oldest['sync.runs']).toEqual([daysAgo(now, 65).toISOString(), 30]);
    expect(oldest['sync.events']).toEqual([daysAgo(now, 130).toISOString(), 90]);
    expect(oldest['sync.webhook_deliveries']).toEqual([daysAgo(now, 5).toISOString(), 30]);
    expect(oldest['sync.rejected_records']).toEqual([daysAgo(now, 10).toISOString(), 90]);
    expect(oldest['sync.backfill_windows']).toEqual([daysAgo(now, 10).toISOString(), 90]);
  });
});

describe('one pruner at a time', () => {
  it('skips at once, changing nothing, while another session holds the prune lock', async () => {
    const other = new pg.Client({ connectionString: t.url });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock(hashtext($1))', [PRUNE_LOCK_KEY]);
      const before = await bookkeepingKeys(t.pool);
      expect((await prune(t.pool, DEFAULTS, { now })).kind).toBe('skipped');
      expect(await bookkeepingKeys(t.pool)).toEqual(before);
      await other.query('SELECT pg_advisory_unlock(hashtext($1))', [PRUNE_LOCK_KEY]);
      expect(removedOf(await prune(t.pool, DEFAULTS, { now }))).toEqual(EXPECTED_REMOVED);
    } finally {
      await other.end();
    }
  });

  it('of two prunes started together on separate pools, one runs and the other is skipped', async () => {
    const second = new pg.Pool({ connectionString: t.url, max: 1 });
    try {
      // The first prunes one row per batch with 200 ms between batches (11 batches: over 2 s), so
      // the second, started after its first batch, surely finds it running.
      let entered!: () => void;
      const inFirst = new Promise<void>((resolve) => {
        entered = resolve;
      });
      const first = prune(
        t.pool,
        { ...DEFAULTS, batchSize: 1 },
        { now, pauseMs: 200, onBatch: () => entered() },
      );
      await inFirst;
      const other = await prune(second, DEFAULTS, { now });
      expect(other.kind).toBe('skipped');
      expect(removedOf(await first)).toEqual(EXPECTED_REMOVED);
    } finally {
      await second.end();
    }
  });
});
