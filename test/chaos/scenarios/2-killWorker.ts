import { Rng } from '../../../src/simulator/rng.ts';
import { cursorsAhead } from '../lib/cursorCoverage.ts';
import { duplicateEventCount } from '../lib/duplicateEvents.ts';
import { leasesStillHeld } from '../lib/leaseState.ts';
import { abortedWrites, awaitOpenWrites, holdCommitsAtCursor, type OpenWrite } from '../lib/midWrite.ts';
import { openSyncJobs } from '../lib/syncJobs.ts';
import { syncOnce } from '../lib/syncOnce.ts';
import { checkEqualToTruth, truthFigures } from '../lib/truthFigures.ts';
import { type ChaosWorld, startWorld } from '../lib/world.ts';
import type { ChaosContext, Scenario } from '../scenario.ts';

/**
 * Issue 10, scenario 2: `kill -9` of a worker at random moments, many of them inside a window's
 * write transaction. Afterwards one clean `sync --once` must leave the warehouse equal to the
 * simulator's truth, with no duplicate event, no lease stuck and no cursor ahead of stored data.
 */

/** Four kills in five are aimed at a held write transaction; the others fall at a random moment. */
const AIM_MID_WRITE_EVERY = 5;
/** How long a kill aimed mid-write waits for a write transaction (startup included) before killing anyway. */
const MID_WRITE_WAIT_MS = 60_000;
/** The world starts this far behind the real now, so its clock can move on while staying in the past. */
const WORLD_LAG_MINUTES = 60;
/** Simulated minutes added after each kill: new shipments, returns and moves for the next worker. */
const ADVANCE_MINUTES = 2;
/** Clean `sync --once` passes at most, to empty the order-detail queue. */
const MAX_CLEAN_PASSES = 4;

export const killWorker: Scenario = {
  id: 2,
  title: '20 kill -9 of a worker at random moments',
  run: async (ctx) => {
    const kills = ctx.short ? 6 : 20;
    const world = await startWorld(ctx, 'kill', {
      seed: 22,
      historyDays: ctx.short ? 2 : 3,
      rates: { ordersPerDay: 150, transfersInPerDay: 10, transfersOutPerDay: 10 },
      lagMinutes: WORLD_LAG_MINUTES,
    });
    // One environment for every process: its sync start must not move with the simulated clock.
    const env = world.env({
      WORKER_CONCURRENCY: '4',
      FULFILLMENT_RATE_LIMIT_RPS: '50',
      FULFILLMENT_ORDER_DETAIL_RPS: '50',
    });
    const jobs = openSyncJobs(ctx, world);
    const rng = new Rng(2);
    const seen = { midWrite: 0, cursorsAhead: new Set<string>() };

    for (let i = 1; i <= kills; i += 1) {
      // Work for the worker about to start: its schedulers' first jobs are long done after a few kills.
      if ((await jobs.pending()) < jobs.pairs.length) await jobs.enqueueAll(1);
      const aimed = i % AIM_MID_WRITE_EVERY !== 0;
      const hold = aimed ? await holdCommitsAtCursor(world.pool) : undefined;
      const worker = world.spawnWorker(env);
      let writes: OpenWrite[] = [];
      if (hold) {
        writes = await awaitOpenWrites(world.pool, MID_WRITE_WAIT_MS, { held: true });
      } else {
        // A random moment, on purpose: starting up, fetching, writing or idle.
        const delayMs = rng.int(200, 8_000);
        await Promise.race([worker.exited, new Promise((resolve) => setTimeout(resolve, delayMs))]);
      }
      const alreadyExited = worker.child.exitCode !== null;
      worker.child.kill('SIGKILL');
      await worker.exited;
      // The held commit can only end (rolled back: its client is gone) once it gets the lock.
      await hold?.release();
      const inside = await abortedWrites(world.pool, writes);
      if (inside > 0) seen.midWrite += 1;
      const ahead = await cursorsAhead(world.pool);
      for (const cursor of ahead) seen.cursorsAhead.add(cursor);
      ctx.log(
        `kill ${i}/${kills}: ${inside > 0 ? `inside ${inside} write transaction(s)` : writes.length > 0 ? 'just after a commit' : 'at a random moment'}` +
          `${alreadyExited ? ' (worker had already exited)' : ''}, cursors ahead ${ahead.length}`,
      );
      ctx.verdict.check(
        `worker ${i} was running when killed`,
        !alreadyExited,
        worker.lines.slice(-3).join(' | '),
      );
      advanceBehindNow(world);
    }
    ctx.verdict.figure('kills', kills);
    ctx.verdict.figure('kills mid-write', seen.midWrite);
    // "Many of them mid-write": the aimed kills hold a commit inside its transaction, so at least
    // half of all kills must have rolled back a write transaction.
    ctx.verdict.check(
      'at least half of the kills landed inside a write transaction',
      seen.midWrite * 2 >= kills,
      seen.midWrite,
    );
    ctx.verdict.expectEqual('cursors ahead of stored data after a kill', seen.cursorsAhead.size, 0);

    await finalCleanSync(ctx, world, env, jobs.pairs.length);
  },
};

/** Moves the simulated clock on a little, never past the real now (the engine reads up to it). */
function advanceBehindNow(world: ChaosWorld): void {
  const roomMinutes = (Date.now() - 60_000 - world.sim.clock.now()) / 60_000;
  if (roomMinutes > 0) world.sim.advance(Math.min(ADVANCE_MINUTES, roomMinutes));
}

/** One clean `sync --once`, then every guarantee of the scenario, checked with no process running. */
async function finalCleanSync(
  ctx: ChaosContext,
  world: ChaosWorld,
  env: Record<string, string>,
  pairs: number,
): Promise<void> {
  const startedAt = new Date();
  // One pass fetches at most ORDER_REQUESTS_PER_RUN order details per account (src/streams/orders.ts):
  // passes repeat, each a full clean sync, until the detail queue is empty.
  let passes = 0;
  let requested = Number.POSITIVE_INFINITY;
  while (requested > 0 && passes < MAX_CLEAN_PASSES) {
    passes += 1;
    const result = await syncOnce(env);
    ctx.verdict.check(
      `clean sync --once pass ${passes} succeeded for every stream and scope`,
      result.code === 0,
      (result.stdout + result.stderr).slice(-600),
    );
    requested = await world.count('SELECT count(*) FROM sync.detail_requests');
  }
  ctx.verdict.figure('clean sync passes', passes);
  const synced = await world.count(
    `SELECT count(*) FROM sync.cursors WHERE stream <> 'orders' AND last_success_at >= $1`,
    [startedAt],
  );
  ctx.verdict.check('the clean sync ran every stream and scope', synced === pairs, `${synced} of ${pairs}`);
  ctx.verdict.expectEqual('order details still requested', requested, 0);

  ctx.verdict.figure('runs recorded', await world.count('SELECT count(*) FROM sync.runs'));
  ctx.verdict.figure(
    'failed runs',
    await world.count(`SELECT count(*) FROM sync.runs WHERE status = 'failed'`),
  );
  ctx.verdict.expectEqual('duplicate events', await duplicateEventCount(world.pool), 0);
  const figures = await truthFigures(world.pool, world.sim.truth(), { namedOrdersOnly: true });
  checkEqualToTruth(ctx.verdict, figures);
  const stuck = await leasesStillHeld(world.pool);
  ctx.verdict.figure('stuck leases', stuck.length);
  ctx.verdict.check('no lease held once every process stopped', stuck.length === 0, stuck.join(', '));
  const ahead = await cursorsAhead(world.pool);
  ctx.verdict.figure('cursors ahead', ahead.length);
  ctx.verdict.check('every cursor at or behind stored data', ahead.length === 0, ahead.join(', '));
}
