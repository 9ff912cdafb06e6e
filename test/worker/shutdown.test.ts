import type { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYNC_STREAM_JOB, syncStreamJobOptions } from '../../jobs/syncStream.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { startWorkerHarness, type WorkerHarness } from './workerHarness.ts';

let harness: WorkerHarness | undefined;
let t: TestDatabase;
let sim: RunningSimulator;
let queue: Queue;

beforeAll(async () => {
  harness = await startWorkerHarness('sigterm', { seed: 5, historyDays: 3 });
  ({ t, sim, queue } = harness);
}, 120_000);

afterAll(() => harness?.close());

function env(): Record<string, string> {
  return harness!.env({
    // Many small windows, so the sync is still running when the signal comes.
    ...harness!.onDemand({ shipments: { windowSize: 30, minWindowSize: 1 } }),
    WORKER_CONCURRENCY: '1',
  });
}

async function runs(account: string) {
  const res = await t.pool.query<{ status: string; window_end: Date }>(
    `SELECT status, window_end FROM sync.runs WHERE stream = 'shipments' AND scope = $1 ORDER BY id`,
    [account],
  );
  return res.rows;
}

describe('SIGTERM during a sync', () => {
  it('exits 0 handing its job back, keeps only committed windows, and the next worker finishes the work', async () => {
    const account = sim.world.accounts[0]!.number;
    const first = harness!.spawn(env());
    await first.waitForLog(/worker started/);
    const payload = { stream: 'shipments' as const, scope: account };
    const job = await queue.add(SYNC_STREAM_JOB, payload, syncStreamJobOptions(payload));
    await waitFor('a few windows stored', async () => (await runs(account)).length >= 3, 30_000);

    first.child.kill('SIGTERM');
    const exit = await first.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    // It handed the unfinished job back rather than finishing the sync first: "in time" is the
    // shutdown timeout's doing, not a duration this test can bound on a busy machine.
    expect(first.lines.some((l) => /"released":1/.test(l))).toBe(true);

    // Committed windows only: the cursor is exactly the end of the last stored window.
    const stored = await runs(account);
    expect(stored.every((r) => r.status === 'succeeded' || r.status === 'partial')).toBe(true);
    const cursor = await t.pool.query(
      'SELECT position_at FROM sync.cursors WHERE stream = $1 AND scope = $2',
      ['shipments', account],
    );
    const lastEnd = Math.max(...stored.map((r) => r.window_end.getTime()));
    expect(cursor.rows[0].position_at.getTime()).toBeGreaterThanOrEqual(lastEnd);
    expect(await job.getState()).toBe('waiting');

    const second = harness!.spawn(env());
    await waitFor('finished by the next worker', async () => (await job.getState()) === 'completed', 60_000);
    const cursorAfter = await t.pool.query(
      'SELECT position_at FROM sync.cursors WHERE stream = $1 AND scope = $2',
      ['shipments', account],
    );
    expect(cursorAfter.rows[0].position_at.getTime()).toBeGreaterThanOrEqual(sim.clock.now() - 60 * 60_000);
    const landed = await t.pool.query(
      'SELECT count(*)::int AS n FROM fulfillment.shipments WHERE account_number = $1',
      [account],
    );
    expect(landed.rows[0].n).toBeGreaterThan(0);
    second.child.kill('SIGTERM');
    expect((await second.exited).code).toBe(0);
  }, 120_000);
});
