import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { markWindowFinished } from '../../src/backfill/windowsStore.ts';
import { createCliContext } from '../../src/cli/context.ts';
import { runCli } from '../../src/cli/run.ts';
import { loadConfig } from '../../src/config/loadConfig.ts';
import { type RunningSimulator, startSimulator } from '../../src/simulator/index.ts';
import { deploymentPrefix, readDeploymentTag } from '../../src/worker/deployment.ts';
import { createEngineRunner } from '../../src/worker/engineRunner.ts';
import { type RunningWorker, startWorker } from '../../src/worker/worker.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/db.ts';
import { simulatorClient } from '../helpers/syncHarness.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { deletePrefix, uniquePrefix } from '../worker/fixtures.ts';

const redisUrl = inject('redisUrl');
const prefix = uniquePrefix('bfqueue');
let t: TestDatabase;
let sim: RunningSimulator;
let worker: RunningWorker | undefined;
let env: Record<string, string>;

beforeAll(async () => {
  t = await createTestDatabase();
  sim = await startSimulator({
    seed: 3,
    clock: 'manual',
    start: new Date('2026-11-10T20:00:00Z'),
    volume: { historyDays: 20 },
  });
  env = {
    DATABASE_URL: t.url,
    REDIS_URL: redisUrl,
    FULFILLMENT_API_URL: sim.url,
    FULFILLMENT_API_TOKEN: 'sandbox-token',
    FULFILLMENT_SUPPLIER_IDS: sim.world.suppliers.map((s) => s.id).join(','),
    FULFILLMENT_ACCOUNT_NUMBERS: sim.world.accounts.map((a) => a.number).join(','),
    FULFILLMENT_QUEUE_PREFIX: prefix,
    LOG_LEVEL: 'silent',
    WORKER_CONCURRENCY: '1',
  };
}, 120_000);

afterAll(async () => {
  await worker?.close(500);
  await sim?.close();
  await t?.close();
  await deletePrefix(redisUrl, prefix);
});

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(
    ['node', 'fulfillment-sync', ...args],
    createCliContext({ env, print: (l) => out.push(l), printError: (l) => err.push(l) }),
  );
  return { code, out, err };
}

describe('backfill --queue', () => {
  it('enqueues one job per unfinished window; workers run them and record them; a second call enqueues nothing', async () => {
    const args = [
      'backfill',
      '--stream',
      'transfers_out',
      '--from',
      '2026-10-25',
      '--to',
      '2026-11-03',
      '--queue',
    ];
    const first = await cli(args);
    expect(first.err).toEqual([]);
    expect(first.code).toBe(0);
    const scopes = sim.world.suppliers.length;
    expect(first.out).toEqual([expect.stringContaining(`enqueued ${10 * scopes} of ${10 * scopes} windows`)]);

    const config = loadConfig(env);
    const logger = pino({ level: 'silent' });
    const client = simulatorClient(sim, config);
    const runSync = createEngineRunner({
      pool: t.pool,
      client,
      config,
      logger,
      now: () => new Date(sim.clock.now()),
    });
    worker = await startWorker({
      config,
      logger,
      // Where `backfill --queue` puts this deployment's jobs (deployment.ts).
      prefix: deploymentPrefix(prefix, await readDeploymentTag(t.pool)),
      runSync,
      registerSchedules: false,
      onBackfillWindowDone: (p, outcome) =>
        markWindowFinished(
          t.pool,
          {
            backfillId: p.backfillId,
            stream: p.stream,
            scope: p.scope,
            window: { from: new Date(p.from), to: new Date(p.to) },
          },
          outcome.recordsFetched,
        ),
    });
    await waitFor(
      'all windows recorded',
      async () =>
        (await t.pool.query('SELECT count(*)::int AS n FROM sync.backfill_windows')).rows[0].n ===
        10 * scopes,
      60_000,
    );
    const again = await cli(args);
    expect(again.out).toEqual([expect.stringContaining(`enqueued 0 of ${10 * scopes} windows`)]);
    // A backfill never creates or moves the incremental cursor position.
    const cursor = await t.pool.query(`SELECT position_at FROM sync.cursors WHERE stream = 'transfers_out'`);
    expect(cursor.rows.every((r) => r.position_at === null)).toBe(true);
  });
});
