import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_STREAM_JOB } from '../../jobs/syncStream.ts';
import { STREAM_NAMES } from '../../src/config/types.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import { STREAM_SCOPE_KIND } from '../../src/worker/streamScopes.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { warehouseMismatches } from '../helpers/warehouseTruth.ts';
import { startWorkerHarness, type WorkerHarness } from './workerHarness.ts';

let harness: WorkerHarness | undefined;
let t: TestDatabase;
let sim: RunningSimulator;
let queue: Queue;
let clockAtStart: number;

beforeAll(async () => {
  // The engine reads up to the real now, so the simulated day ends there; the clock is manual and
  // never advanced, so the truth the warehouse is compared with cannot move during the test.
  // The world starts at the current minute, so what one day holds depends on when the test runs: at
  // the default one or two transfers a day per supplier, a day without any came up about one run in
  // seven. Six a day makes an empty table (which the last assertion refuses) a one-in-160,000 event.
  harness = await startWorkerHarness('three', {
    seed: 9,
    historyDays: 1,
    rates: { transfersInPerDay: 6, transfersOutPerDay: 6 },
  });
  ({ t, sim, queue } = harness);
  clockAtStart = sim.clock.now();
}, 120_000);

afterAll(() => harness?.close());

async function count(sql: string, params: unknown[] = []): Promise<number> {
  const res = await t.pool.query(sql, params);
  return Number(res.rows[0].n);
}

describe('three worker processes on one Redis', () => {
  it('sync a simulated day with no stream and scope ever running twice at once, ending equal to the truth', async () => {
    const env = harness!.env({
      FULFILLMENT_SUPPLIER_IDS: sim.world.suppliers.map((s) => s.id).join(','),
      FULFILLMENT_ACCOUNT_NUMBERS: sim.world.accounts.map((a) => a.number).join(','),
      WORKER_CONCURRENCY: '3',
      // The three now share one upstream budget (10/s by default): this test is about exclusivity
      // and the truth, not pacing, so the budget is the pace three unshared workers had.
      FULFILLMENT_RATE_LIMIT_RPS: '30',
    });
    const spawn = harness!.spawn;
    const workers = [spawn(env), spawn(env), spawn(env)];
    await Promise.all(workers.map((w) => w.waitForLog(/worker started/, 60_000)));

    // Schedules registered once, not three times.
    const scheduled = STREAM_NAMES.filter((s) => s !== 'orders').reduce(
      (n, s) =>
        n + (STREAM_SCOPE_KIND[s] === 'account' ? sim.world.accounts.length : sim.world.suppliers.length),
      0,
    );
    expect(await queue.getJobSchedulersCount()).toBe(scheduled);

    // Every stream and scope asked for three times at once, as distinct jobs, to provoke overlap.
    const pairs = STREAM_NAMES.filter((s) => s !== 'orders').flatMap((stream) =>
      (STREAM_SCOPE_KIND[stream] === 'account'
        ? sim.world.accounts.map((a) => a.number)
        : sim.world.suppliers.map((s) => s.id)
      ).map((scope) => ({ stream, scope })),
    );
    await queue.addBulk([1, 2, 3].flatMap(() => pairs.map((data) => ({ name: SYNC_STREAM_JOB, data }))));
    await waitFor(
      'every stream and scope synced and the queue drained',
      async () => {
        const counts = await queue.getJobCounts('waiting', 'active', 'prioritized');
        const synced = await count(
          'SELECT count(*) AS n FROM sync.cursors WHERE last_success_at IS NOT NULL',
        );
        return (
          synced >= pairs.length && counts.waiting === 0 && counts.active === 0 && counts.prioritized === 0
        );
      },
      90_000,
    );
    const failed = await queue.getJobCounts('failed');
    expect(failed.failed).toBe(0);
    // Order details requested by the shipments and returns syncs are fetched by the orders stream.
    await waitFor(
      'order details fetched',
      async () => (await count('SELECT count(*) AS n FROM sync.detail_requests')) === 0,
      60_000,
    );
    expect(await count('SELECT count(*) AS n FROM fulfillment.orders')).toBeGreaterThan(0);

    // No two runs of one stream and scope overlap in time (checked from the run log). The windows of
    // one run share its lease fence and may overlap (the next is fetched while one commits).
    expect(await count('SELECT count(*) AS n FROM sync.runs WHERE lease_fence IS NULL')).toBe(0);
    const overlaps = await count(
      `SELECT count(*) AS n FROM sync.runs a JOIN sync.runs b
         ON a.stream = b.stream AND a.scope = b.scope AND a.id < b.id AND a.lease_fence <> b.lease_fence
        WHERE a.started_at < b.finished_at AND b.started_at < a.finished_at`,
    );
    expect(overlaps).toBe(0);
    expect(await count('SELECT count(*) AS n FROM sync.runs')).toBeGreaterThan(pairs.length);

    // Stopped workers cannot write during the comparison; the manual clock keeps the truth still.
    for (const w of workers) w.child.kill('SIGTERM');
    for (const w of workers) expect((await w.exited).code).toBe(0);

    // The warehouse equals what the simulator holds, field by field, for every stream the workers
    // ran (orders: those the shipments and returns named, which is all the orders stream fetches).
    expect(sim.clock.now()).toBe(clockAtStart);
    expect(
      await warehouseMismatches(t.pool, sim.truth(), { streams: STREAM_NAMES, namedOrdersOnly: true }),
    ).toEqual([]);
    // ...and the comparison was not of empty tables (a one-day world has no returns yet).
    for (const table of STREAM_NAMES.filter((s) => s !== 'returns'))
      expect(await count(`SELECT count(*) AS n FROM fulfillment.${table}`), table).toBeGreaterThan(0);
  }, 180_000);
});
