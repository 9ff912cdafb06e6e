import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FulfillmentClient } from '../../src/api/index.ts';
import { planBackfillWindows } from '../../src/backfill/plan.ts';
import { runBackfill } from '../../src/backfill/runBackfill.ts';
import { backfillIdOf, windowKey } from '../../src/backfill/windowsStore.ts';
import type { Config } from '../../src/config/types.ts';
import type { RunningSimulator } from '../../src/simulator/index.ts';
import { createEngineRunner } from '../../src/worker/engineRunner.ts';
import type { SyncRequest, SyncRunner } from '../../src/worker/seams.ts';
import type { TestDatabase } from '../helpers/db.ts';
import { type SyncHarness, startSyncHarness } from '../helpers/syncHarness.ts';

const logger = pino({ level: 'silent' });
let t: TestDatabase;
let sim: RunningSimulator;
let client: FulfillmentClient;
let config: Config;
let harness: SyncHarness | undefined;

beforeAll(async () => {
  harness = await startSyncHarness({
    seed: 7,
    start: new Date('2026-11-10T20:00:00Z'),
    volume: { historyDays: 95 },
  });
  ({ t, sim, config, client } = harness);
}, 120_000);

afterAll(() => harness?.close());

async function cursorOf(stream: string, scope: string) {
  const res = await t.pool.query(
    'SELECT position_at, position FROM sync.cursors WHERE stream = $1 AND scope = $2',
    [stream, scope],
  );
  return res.rows[0];
}

describe('backfill', () => {
  it('a 90-day backfill killed halfway resumes without refetching finished windows and leaves the cursor alone', async () => {
    const account = sim.world.accounts[0]!.number;
    const engine = createEngineRunner({
      pool: t.pool,
      client,
      config,
      logger,
      now: () => new Date(sim.clock.now()),
      lockMode: 'wait',
    });
    // An incremental sync first, so there is a cursor the backfill must not move.
    await engine({ stream: 'invoices', scope: account, mode: 'incremental' });
    const cursorBefore = await cursorOf('invoices', account);
    expect(cursorBefore?.position_at).toBeInstanceOf(Date);

    const windows = planBackfillWindows({
      fromDay: '2026-08-10',
      toDay: '2026-11-07',
      windowDays: 1,
      timezone: config.timezone,
    });
    expect(windows).toHaveLength(90);
    const backfillId = backfillIdOf('invoices', '2026-08-10', '2026-11-07');
    const fetched: string[][] = [[], []];
    const counting =
      (run: number, killAfter?: number): SyncRunner =>
      async (request: SyncRequest) => {
        if (killAfter !== undefined && fetched[run]!.length >= killAfter) throw new Error('killed');
        fetched[run]!.push(...(request.windows ?? []).map(windowKey));
        return engine(request);
      };
    const args = {
      pool: t.pool,
      backfillId,
      stream: 'invoices' as const,
      scopes: [account],
      windows,
      emitEvents: false,
    };

    await expect(runBackfill({ ...args, runSync: counting(0, 45) })).rejects.toThrow('killed');
    expect(fetched[0]).toHaveLength(45);

    const progress: number[] = [];
    const summary = await runBackfill({
      ...args,
      runSync: counting(1),
      onProgress: (p) => progress.push(p.windowsDone),
    });
    expect(summary.windowsDone).toBe(90);
    expect(summary.windowsResumed).toBe(45);
    expect(progress.at(-1)).toBe(90);
    // The second run fetched exactly the windows the first did not finish.
    expect(fetched[1]).toHaveLength(45);
    expect(fetched[1]!.filter((k) => fetched[0]!.includes(k))).toEqual([]);
    const done = await t.pool.query(
      'SELECT count(*)::int AS n FROM sync.backfill_windows WHERE backfill_id = $1',
      [backfillId],
    );
    expect(done.rows[0].n).toBe(90);

    // Invoices of the backfilled range landed; the incremental cursor did not move.
    const rows = await t.pool.query('SELECT count(*)::int AS n FROM fulfillment.invoices');
    expect(rows.rows[0].n).toBeGreaterThan(0);
    expect(await cursorOf('invoices', account)).toEqual(cursorBefore);

    // A third run has nothing left to fetch.
    const again = await runBackfill({ ...args, runSync: counting(1) });
    expect(again.windowsResumed).toBe(90);
    expect(fetched[1]).toHaveLength(45);
  });

  it('a backfill of a scope never synced leaves no cursor, so its first incremental run is an initial load', async () => {
    const account = sim.world.accounts[1]!.number;
    const engine = createEngineRunner({
      pool: t.pool,
      client,
      config,
      logger,
      now: () => new Date(sim.clock.now()),
      lockMode: 'wait',
    });
    const windows = planBackfillWindows({
      fromDay: '2026-10-01',
      toDay: '2026-10-20',
      windowDays: 5,
      timezone: config.timezone,
    });
    await engine({ stream: 'invoices', scope: account, mode: 'backfill', windows });
    const backfilled = await t.pool.query(
      `SELECT count(*)::int AS n FROM sync.runs WHERE stream = 'invoices' AND scope = $1 AND mode = 'backfill' AND status IN ('succeeded', 'partial')`,
      [account],
    );
    expect(backfilled.rows[0].n).toBe(windows.length);
    expect(await cursorOf('invoices', account)).toBeUndefined();

    // The first incremental run is the scope's initial load: its events are stored, not delivered.
    await engine({ stream: 'invoices', scope: account, mode: 'incremental' });
    expect((await cursorOf('invoices', account))?.position_at).toBeInstanceOf(Date);
    const events = await t.pool.query(
      `SELECT count(*)::int AS n, count(*) FILTER (WHERE NOT suppressed)::int AS delivered
         FROM sync.events WHERE stream = 'invoices' AND scope = $1`,
      [account],
    );
    expect(events.rows[0].n).toBeGreaterThan(0);
    expect(events.rows[0].delivered).toBe(0);
  });

  it('rejects bad day input with one clear line', () => {
    expect(() =>
      planBackfillWindows({ fromDay: '2026-13-01', toDay: '2026-12-01', windowDays: 1, timezone: 'UTC' }),
    ).toThrow('--from must be a day as yyyy-MM-dd, got "2026-13-01".');
    expect(() =>
      planBackfillWindows({ fromDay: '2026-02-02', toDay: '2026-02-01', windowDays: 1, timezone: 'UTC' }),
    ).toThrow('after --to');
  });
});
