import { SIMULATOR_TOKEN } from '../../helpers/syncHarness.ts';
import { waitFor } from '../../helpers/waitFor.ts';
import type { FlakyReceiver } from '../lib/flakyReceiver.ts';
import { scheduledPairsSucceededSince, stackTraceLines } from '../lib/restartProbes.ts';
import { subscribeFlakyReceiver } from '../lib/subscribedReceiver.ts';
import { everyStreamEveryMinute, startWorld } from '../lib/world.ts';
import type { Scenario } from '../scenario.ts';

/** Generous: the machine is shared and slow; nothing here asserts on speed. */
const DRAIN_DEADLINE_MS = 180_000;

/**
 * Delivery tuned so that retries come within the scenario: 1 s between attempts at most (the
 * Standard Webhooks schedule capped, same 10 attempts), and an attempt that hangs fails after 1.5 s.
 * The receiver fails at most 6 times in a row per message, fewer than the 10 attempts.
 */
const DELIVERY_ENV = { WEBHOOK_RETRY_MAX_DELAY_MS: '1000', WEBHOOK_TIMEOUT_MS: '1500' };

export const flakyReceiver: Scenario = {
  id: 5,
  title: 'a flaky webhook receiver and a Redis flush mid-run',
  run: async (ctx) => {
    const { verdict } = ctx;
    // The world starts an hour back, so its clock can be advanced and stay behind the real now.
    const world = await startWorld(ctx, 'flaky', {
      seed: 505,
      historyDays: ctx.short ? 1 : 3,
      lagMinutes: 60,
    });
    const { receiver, endpoint } = await subscribeFlakyReceiver(ctx, world.pool, {
      errorRate: 0.5,
      hangRate: 0.04,
      maxFailuresInARow: 6,
      seed: 5,
    });

    const worker = world.spawnWorker(
      world.env({
        ...DELIVERY_ENV,
        // The first load's events are delivered too: many events at once.
        FULFILLMENT_DELIVER_INITIAL_EVENTS: 'true',
        FULFILLMENT_STREAMS: everyStreamEveryMinute(),
      }),
    );

    // Mid-run: once deliveries are pending after a failed attempt, flush Redis. Delivery keeps its
    // state and queue in Postgres: the flush must neither lose nor hold up a delivery.
    const retrying = () =>
      world.count(
        `SELECT count(*) FROM sync.webhook_delivery_states WHERE status = 'pending' AND attempts_made > 0`,
      );
    await waitFor('deliveries waiting for a retry', async () => (await retrying()) >= 3, 180_000, 100);
    const pendingAtFlush = await world.count(
      `SELECT count(*) FROM sync.webhook_delivery_states WHERE status = 'pending'`,
    );
    await ctx.services.redis.flushAll();
    const flushedAt = Date.now();
    verdict.figure('deliveries pending at the flush', pendingAtFlush);
    ctx.log(`flushed Redis with ${pendingAtFlush} deliveries pending`);

    // The world moves on after the flush: new events while the worker recovers.
    for (let i = 0; i < (ctx.short ? 1 : 3); i += 1) world.sim.advance(10);

    const undelivered = () =>
      world.count(
        `SELECT count(*) FROM sync.events e WHERE NOT e.suppressed AND NOT EXISTS (
           SELECT 1 FROM sync.webhook_deliveries d
            WHERE d.event_id = e.id AND d.endpoint_id = $1 AND d.status = 'succeeded')`,
        [endpoint.id],
      );
    const drained = await waitFor(
      'every (event, endpoint) pair delivered',
      // Synced to the truth first: every event the world's changes derive is in the outbox.
      async () =>
        (await syncedSince(flushedAt)) &&
        (await world.mismatches({ namedOrdersOnly: true })).length === 0 &&
        (await undelivered()) === 0,
      DRAIN_DEADLINE_MS,
      2_000,
    ).then(
      () => true,
      (error: Error) => {
        verdict.check('every pair delivered before the deadline', false, error.message);
        return false;
      },
    );
    if (drained)
      verdict.figure('seconds to drain after the flush', Math.round((Date.now() - flushedAt) / 1000));

    const eventIds = (
      await world.pool.query<{ id: string }>('SELECT id FROM sync.events WHERE NOT suppressed')
    ).rows.map((r) => r.id);
    checkReceived(ctx.verdict, receiver, eventIds);

    worker.child.kill('SIGTERM');
    const exit = await worker.exited;
    verdict.check('worker exits 0 on SIGTERM', exit.code === 0, `code ${exit.code} signal ${exit.signal}`);
    const secrets = [endpoint.secret, endpoint.secret.replace(/^whsec_/, ''), SIMULATOR_TOKEN];
    verdict.expectEqual(
      'worker output lines with a secret',
      worker.lines.filter((l) => secrets.some((s) => l.includes(s))).length,
      0,
    );
    verdict.expectEqual('stack-trace lines in the worker output', stackTraceLines(worker.lines), 0);

    /** Every scheduled stream x scope synced after `since` (the events of the last advance exist). */
    async function syncedSince(since: number): Promise<boolean> {
      const pairs = await scheduledPairsSucceededSince(world, since);
      const wanted = await world.count(
        `SELECT count(*) FROM (SELECT stream, scope FROM sync.runs UNION SELECT stream, scope FROM sync.cursors) p
          WHERE stream <> 'orders'`,
      );
      return pairs === wanted;
    }
  },
};

/**
 * What the receiver saw, against the events that should reach it: each answered 2xx at least once
 * (0 lost), each always under one webhook-id (its event id), every signature valid.
 *
 * Duplicates (an event answered 2xx more than once) are a figure, not a failure: delivery is at
 * least once. They happen when the sender cannot record a 2xx it got (Postgres away between the
 * answer and the commit), or when an answer arrives after the sender's timeout; this receiver
 * never answers late, so here they would point at a sender sending a delivered pair again.
 */
function checkReceived(
  verdict: Parameters<Scenario['run']>[0]['verdict'],
  receiver: FlakyReceiver,
  eventIds: string[],
) {
  const requests = receiver.requests;
  const byEvent = new Map<string, { ok: number; webhookIds: Set<string> }>();
  for (const r of requests) {
    const entry = byEvent.get(r.eventId) ?? { ok: 0, webhookIds: new Set<string>() };
    if (r.answer === 'ok') entry.ok += 1;
    entry.webhookIds.add(r.webhookId);
    byEvent.set(r.eventId, entry);
  }
  const lost = eventIds.filter((id) => (byEvent.get(id)?.ok ?? 0) === 0);
  const unstable = [...byEvent].filter(([id, e]) => e.webhookIds.size !== 1 || !e.webhookIds.has(id));
  verdict.figure('events', eventIds.length);
  verdict.figure('requests', requests.length);
  verdict.figure('500s', requests.filter((r) => r.answer === 'error').length);
  verdict.figure('hangs', requests.filter((r) => r.answer === 'hang').length);
  verdict.figure('successes', requests.filter((r) => r.answer === 'ok').length);
  verdict.figure('duplicates', [...byEvent.values()].filter((e) => e.ok > 1).length);
  verdict.check('events to deliver', eventIds.length > 0, 0);
  verdict.figure('lost', lost.length);
  verdict.check('lost = 0', lost.length === 0, `${lost.length}, e.g. ${lost.slice(0, 3).join(', ')}`);
  verdict.expectEqual('events whose webhook-id varied or was not the event id', unstable.length, 0);
  verdict.expectEqual('invalid signatures', requests.filter((r) => !r.signatureValid).length, 0);
}
