import { pino } from 'pino';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { prune } from '../../src/retention/prune.ts';
import { PRUNE_SCHEDULER_ID } from '../../src/worker/pruneSchedule.ts';
import { type RunningWorker, startWorker } from '../../src/worker/worker.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { deletePrefix, testConfig, uniquePrefix } from '../worker/fixtures.ts';
import { bookkeepingKeys, seedBookkeeping } from './seed.ts';

const redisUrl = inject('redisUrl');
const logger = pino({ level: 'silent' });
const prefix = uniquePrefix('prune');
const running: RunningWorker[] = [];
let t: TestDatabase | undefined;

afterAll(async () => {
  for (const w of running) await w.close(100);
  await deletePrefix(redisUrl, prefix);
  await t?.close();
});

describe('the worker prunes on a schedule', () => {
  it('two workers register one prune scheduler, and its job prunes by the rules', async () => {
    t = await createTestDatabase();
    const db = t;
    await seedBookkeeping(db.pool, new Date());
    const config = testConfig({ redisUrl, worker: { concurrency: 1, shutdownTimeoutMs: 2000 } });
    let prunes = 0;
    for (let i = 0; i < 2; i++) {
      running.push(
        await startWorker({
          config,
          logger,
          prefix,
          followOrders: false,
          runSync: async () => ({ recordsFetched: 0 }),
          prune: async (shouldStop) => {
            prunes += 1;
            return prune(db.pool, config.retention, { shouldStop });
          },
        }),
      );
    }
    const schedulers = await running[0]!.queues.maintenance.getJobSchedulers(0, -1);
    expect(schedulers.map((s) => [s.key, Number(s.every)])).toEqual([[PRUNE_SCHEDULER_ID, 60 * 60_000]]);
    // A new scheduler's first job comes due at once; one of the two workers takes it.
    await waitFor(
      'the scheduled prune',
      async () => (await bookkeepingKeys(db.pool)).runs.join() === '2,4,6,8',
    );
    const keys = await bookkeepingKeys(db.pool);
    expect(keys.events).toEqual([
      'ev_dispatched_lately',
      'ev_pending_old',
      'ev_recent',
      'ev_replay_pending_old',
      'ev_undispatched_old',
    ]);
    expect(keys.inventoryHistory).toEqual(['SKU-1']);
    expect(prunes).toBe(1);
  });
});
