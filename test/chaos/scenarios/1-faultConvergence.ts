import { dayOf } from '../../../src/sync/plan.ts';
import { duplicateEventCount, duplicateEventSamples } from '../lib/duplicateEvents.ts';
import { faultWeekSync } from '../lib/faultWeekSync.ts';
import { totalOf, truthFigures } from '../lib/truthFigures.ts';
import { type ChaosWorld, startWorld } from '../lib/world.ts';
import type { Scenario } from '../scenario.ts';

/**
 * A simulated week (two days in the short variant) against an upstream that answers 10% of calls
 * with a 5xx, 5% with a 429, lets 2% time out and sends 1% malformed bodies, syncing every stream
 * and scope at each clock step; then the faults stop and one clean sync runs. The warehouse must
 * then equal the simulator's truth table by table, and the outbox must hold no change twice.
 *
 * The engine runs in-process (lib/faultWeekSync.ts says why: a child process reads the real clock
 * and could not follow the simulator's week), against this scenario's own database on the private
 * Postgres, through the real retrying HTTP client.
 */

const FAULTS = { rates: { http5xx: 0.1, rateLimit: 0.05, timeout: 0.02, malformedJson: 0.01 } };
/**
 * One clock step mid-week during which every shipment-updates call answers a malformed body (as in
 * test/sync/fault-week.test.ts): the rates alone fail a run only now and then, and rarely the one
 * stream whose loss a re-read does not hide (shipments read from the cursor less a 2 h lookback).
 * This makes sure a whole shipments window fails on bad bodies and has to be caught up.
 */
const OUTAGE = { ...FAULTS, operations: { 'GET Shipments/Updates': { malformedJson: 1 } } };
/** Per attempt during the faulty week: a `timeout` fault never answers, so each costs this much. */
const WEEK_ATTEMPT_TIMEOUT_MS = 1_000;
/** The clean sync's: generous, so a slow answer on this loaded machine is not taken for a fault. */
const CLEAN_ATTEMPT_TIMEOUT_MS = 30_000;

export const faultConvergence: Scenario = {
  id: 1,
  title: 'fault convergence: a week at 10% 5xx, 5% 429, 2% timeouts, 1% malformed, then one clean sync',
  run: async (ctx) => {
    const days = ctx.short ? 2 : 7;
    const stepHours = ctx.short ? 12 : 8;
    const outageAt = Math.ceil((days * 12) / stepHours) * stepHours;
    const world = await startWorld(ctx, 'faults', { seed: 101, historyDays: 2 });
    const sync = faultWeekSync(world, WEEK_ATTEMPT_TIMEOUT_MS);
    const started = performance.now();
    world.sim.setFaults(FAULTS);

    await sync.syncAll();
    for (let hours = stepHours; hours <= days * 24; hours += stepHours) {
      world.sim.advance(stepHours * 60);
      const outage = hours === outageAt;
      if (outage) world.sim.setFaults(OUTAGE);
      await sync.syncAll();
      if (outage) world.sim.setFaults(FAULTS);
      ctx.log(
        `day ${(hours / 24).toFixed(1)}: ${sync.calls.length} calls, ${sync.failedRuns} failed runs (${((performance.now() - started) / 1000).toFixed(0)} s)`,
      );
    }
    const failedDuringWeek = sync.failedRuns;
    const weekCalls = sync.calls.length;
    world.sim.setFaults({});
    advanceToNextDay(world, sync.config.timezone);
    const cleanClient = sync.client(CLEAN_ATTEMPT_TIMEOUT_MS);
    await sync.syncAll(cleanClient);
    const cleanFailures = sync.failedRuns - failedDuringWeek;

    const v = ctx.verdict;
    v.figure(
      'simulated days',
      `${days} (clock steps of ${stepHours} h; shipment updates malformed throughout the step at ${outageAt} h)`,
    );
    const tally = world.sim.faultTally();
    v.figure(
      'faults injected',
      Object.entries(tally)
        .map(([kind, n]) => `${kind} ${n}`)
        .join(', ') || 'none',
    );
    for (const kind of Object.keys(FAULTS.rates))
      v.check(`fault kind ${kind} injected`, (tally[kind] ?? 0) > 0, tally[kind] ?? 0);
    v.figure('upstream calls', `${sync.calls.length} (${weekCalls} during the faulty week)`);
    v.figure('failed runs during the faulty week', failedDuringWeek);
    v.check('runs failed during the faulty week (the faults bit)', failedDuringWeek > 0, failedDuringWeek);
    v.expectEqual('failed runs of the clean sync', cleanFailures, 0);

    const figures = await truthFigures(world.pool, world.sim.truth(), { namedOrdersOnly: true });
    for (const [table, f] of Object.entries(figures)) {
      v.figure(
        `${table}`,
        `${f.records} in truth: missing ${f.missing}, extra ${f.extra}, field mismatches ${f.fieldMismatches}`,
      );
      v.check(`${table}: 0 missing`, f.missing === 0, f.missing);
      v.check(`${table}: 0 extra`, f.extra === 0, f.extra);
      v.check(`${table}: 0 field mismatches`, f.fieldMismatches === 0, f.fieldMismatches);
      v.check(`${table}: no key twice in the truth`, f.twiceInTruth === 0, f.twiceInTruth);
    }
    const total = totalOf(figures);
    v.check('the truth is not empty', total.records > 0, total.records);
    if (total.missing + total.extra + total.fieldMismatches > 0)
      for (const line of await world.mismatches({ namedOrdersOnly: true, limit: 5 })) ctx.log(line);

    const events = await world.count('SELECT count(*) FROM sync.events');
    v.figure('events written', events);
    v.check('events were written', events > 0, events);
    const duplicates = await duplicateEventCount(world.pool);
    v.expectEqual('duplicate events', duplicates, 0);
    if (duplicates > 0)
      for (const line of await duplicateEventSamples(world.pool)) ctx.log(`duplicate: ${line}`);
  },
};

/**
 * Moves the clock to the first minutes of the next day in `timezone`, so the clean sync is the
 * day's first: the products stream refreshes every product's detail (gift-set stock included)
 * only then and on listing changes in between (src/streams/products.ts), and details that failed
 * in the last faulty step are past their retry back-off. A clean sync at the same instant as the
 * last faulty one would compare the truth with a detail refresh the design has not yet due.
 */
function advanceToNextDay(world: ChaosWorld, timezone: string): void {
  const today = dayOf(new Date(world.sim.clock.now()), timezone);
  while (dayOf(new Date(world.sim.clock.now()), timezone) === today) world.sim.advance(30);
}
