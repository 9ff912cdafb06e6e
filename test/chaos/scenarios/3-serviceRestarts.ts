import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { loadConfig } from '../../../src/config/loadConfig.ts';
import { QUEUE_NAMES } from '../../../src/worker/queues.ts';
import { desiredSchedules } from '../../../src/worker/schedules.ts';
import { waitFor } from '../../helpers/waitFor.ts';
import { duplicateEventCount } from '../lib/duplicateEvents.ts';
import {
  readyzStatus,
  scheduledPairsSucceededSince,
  stackTraceLines,
  succeededRunsSince,
  warningLines,
} from '../lib/restartProbes.ts';
import { subscribeFlakyReceiver } from '../lib/subscribedReceiver.ts';
import {
  checkEqualToTruth,
  problemsOf,
  setAsideDailyDetail,
  totalOf,
  truthFigures,
} from '../lib/truthFigures.ts';
import { type ChaosWorld, everyStreamEveryMinute, startWorld } from '../lib/world.ts';
import type { ChaosContext, Scenario } from '../scenario.ts';
import { freePort } from '../services.ts';

/** Generous deadlines: the machine is shared and slow; nothing here asserts on speed. */
const READY_DEADLINE_MS = 90_000;
const SYNC_DEADLINE_MS = 180_000;

/** One restart of a service under the running worker. */
interface Restart {
  label: string;
  stop: () => Promise<void>;
  start: () => Promise<void>;
  /** Whether Redis lost its keys (the job schedulers must be back afterwards). */
  losesRedisData: boolean;
}

export const serviceRestarts: Scenario = {
  id: 3,
  title: 'a Redis restart and a Postgres restart under a running worker',
  run: async (ctx) => {
    const { verdict, services } = ctx;
    // The world starts an hour back, so the clock can be advanced during the scenario and stay
    // behind the real now the worker reads up to.
    const world = await startWorld(ctx, 'restarts', { seed: 303, historyDays: 1, lagMinutes: 60 });

    // A subscribed endpoint, so deliveries are pending around the restarts.
    const { endpoint } = await subscribeFlakyReceiver(ctx, world.pool, {
      errorRate: 0,
      hangRate: 0,
      maxFailuresInARow: 0,
      seed: 3,
    });

    const port = await freePort();
    const env = world.env({ HTTP_PORT: String(port), FULFILLMENT_STREAMS: everyStreamEveryMinute() });
    const wanted = desiredSchedules(loadConfig(env)).length;
    const worker = world.spawnWorker(env);
    const startedAt = Date.now();
    await waitFor('the worker ready', async () => (await readyzStatus(port)) === 200, READY_DEADLINE_MS, 250);
    await waitFor(
      'the first load (every schedule synced once)',
      async () => (await scheduledPairsSucceededSince(world, startedAt)) === wanted,
      SYNC_DEADLINE_MS,
      250,
    );
    ctx.log(`worker ready and synced; ${wanted} schedules`);

    const restarts: Restart[] = [
      ...(ctx.short
        ? []
        : [
            {
              label: 'redis restart (data kept)',
              stop: () => services.redis.stop({ keepData: true }),
              start: () => services.redis.start(),
              losesRedisData: false,
            },
          ]),
      {
        label: 'redis restart (data lost)',
        stop: () => services.redis.stop({ keepData: false }),
        start: () => services.redis.start(),
        losesRedisData: true,
      },
      {
        label: 'postgres restart',
        stop: () => services.postgres.stop(),
        start: () => services.postgres.start(),
        losesRedisData: false,
      },
    ];
    for (const restart of restarts) {
      // A worker that never became ready again cannot be checked further: the failure is recorded.
      if (!(await restartUnderWorker(ctx, world, port, worker.lines, restart, wanted))) return;
    }

    // The world moves on once more; the worker must catch up with all of it.
    world.sim.advance(10);
    const advancedAt = Date.now();
    await waitFor(
      'every schedule synced after the last change',
      async () => (await scheduledPairsSucceededSince(world, advancedAt)) === wanted,
      SYNC_DEADLINE_MS,
      250,
    );
    const truth = world.sim.truth();
    // Product BOM quantities refresh with the day's first products run (src/streams/products.ts):
    // set apart and reported, as in scenarios 2 and 4; every other difference counts.
    const compare = () => truthFigures(world.pool, truth, { namedOrdersOnly: true });
    let figures = await compare();
    // Follow-up order syncs run after the shipments and returns that ask for them: wait for them.
    await waitFor(
      'the warehouse equal to the truth',
      async () => {
        figures = await compare();
        return problemsOf(totalOf(setAsideDailyDetail(figures).strict)) === 0;
      },
      SYNC_DEADLINE_MS,
      2_000,
    ).catch(() => undefined);
    checkEqualToTruth(verdict, figures);

    verdict.expectEqual('duplicate events', await duplicateEventCount(world.pool), 0);
    await checkDeliveries(ctx, world, endpoint.id);

    worker.child.kill('SIGTERM');
    const exit = await worker.exited;
    verdict.check('worker exits 0 on SIGTERM', exit.code === 0, `code ${exit.code} signal ${exit.signal}`);
    verdict.expectEqual('stack-trace lines in the worker output', stackTraceLines(worker.lines), 0);
  },
};

/**
 * Restarts a service under the running worker, untouched: /readyz must go not-ready during the
 * outage and answer 200 again on its own, and syncing must resume (a new succeeded run). Answers
 * whether the worker became ready again.
 */
async function restartUnderWorker(
  ctx: ChaosContext,
  world: ChaosWorld,
  port: number,
  lines: readonly string[],
  restart: Restart,
  wanted: number,
): Promise<boolean> {
  const { verdict } = ctx;
  // New changes upstream, so the runs after the restart have events to derive and deliver.
  world.sim.advance(5);
  const firstLine = lines.length;
  const outageStarted = Date.now();
  await restart.stop();
  // The service stays down until /readyz says so (a readiness that follows the real state must).
  const noticed = await waitFor(
    `/readyz not ready during the ${restart.label}`,
    async () => (await readyzStatus(port)) !== 200,
    30_000,
    100,
  ).then(
    () => true,
    () => false,
  );
  verdict.check(
    `/readyz not ready while the service is down (${restart.label})`,
    noticed,
    'still 200 after 30 s',
  );
  await restart.start();
  const backAt = Date.now();
  ctx.log(`${restart.label}: service back after ${((backAt - outageStarted) / 1000).toFixed(1)} s`);
  const ready = await waitFor(
    `ready after the ${restart.label}`,
    async () => (await readyzStatus(port)) === 200,
    READY_DEADLINE_MS,
    250,
  ).then(
    () => true,
    (error: Error) => {
      verdict.check(`ready again after the ${restart.label}`, false, error.message);
      return false;
    },
  );
  const readyAt = Date.now();
  if (restart.losesRedisData) {
    const present = await schedulersPresent(ctx, world);
    verdict.figure(`${restart.label}: job schedulers present when ready`, `${present}/${wanted}`);
    verdict.check(`${restart.label}: job schedulers re-created`, present === wanted, `${present}/${wanted}`);
  }
  if (!ready) return false;
  verdict.figure(`${restart.label}: seconds to ready`, seconds(readyAt - backAt));
  const outageLines = lines.slice(firstLine);
  for (const line of outageLines.filter((l) => !l.startsWith('{"level":30')).slice(0, 12))
    ctx.log(`  ${line.slice(0, 200)}`);
  verdict.figure(`${restart.label}: warning and error lines until ready`, warningLines(outageLines));
  verdict.expectEqual(`${restart.label}: stack-trace lines`, stackTraceLines(outageLines), 0);

  try {
    await waitFor(
      `a succeeded run after the ${restart.label}`,
      async () => (await succeededRunsSince(world, backAt)) > 0,
      SYNC_DEADLINE_MS,
      250,
    );
    verdict.figure(`${restart.label}: seconds to first successful run`, seconds(Date.now() - backAt));
  } catch (error) {
    verdict.check(`syncing resumes after the ${restart.label}`, false, (error as Error).message);
  }
  return true;
}

/** How many job schedulers the world's sync queue has in Redis now (read through a connection of our own). */
async function schedulersPresent(ctx: ChaosContext, world: ChaosWorld): Promise<number> {
  const redis = new Redis(ctx.services.redisUrl, { maxRetriesPerRequest: 1 });
  redis.on('error', () => {});
  const queue = new Queue(QUEUE_NAMES.sync, { connection: redis, prefix: world.queuePrefix });
  try {
    return await queue.getJobSchedulersCount();
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/** Every deliverable event reached the subscribed endpoint (the restarts lost no webhook). */
async function checkDeliveries(ctx: ChaosContext, world: ChaosWorld, endpointId: string): Promise<void> {
  const undelivered = () =>
    world.count(
      `SELECT count(*) FROM sync.events e WHERE NOT e.suppressed AND NOT EXISTS (
         SELECT 1 FROM sync.webhook_deliveries d
          WHERE d.event_id = e.id AND d.endpoint_id = $1 AND d.status = 'succeeded')`,
      [endpointId],
    );
  await waitFor('every event delivered', async () => (await undelivered()) === 0, 60_000, 1_000).catch(
    () => undefined,
  );
  ctx.verdict.figure(
    'events delivered',
    await world.count(`SELECT count(*) FROM sync.events WHERE NOT suppressed`),
  );
  ctx.verdict.expectEqual('events not delivered', await undelivered(), 0);
}

function seconds(ms: number): number {
  return Math.round(ms / 100) / 10;
}
