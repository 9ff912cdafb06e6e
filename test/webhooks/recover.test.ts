import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhooksDisable, webhooksEnable, webhooksRecover } from '../../src/cli/actions/webhooks.ts';
import { writeEvents } from '../../src/events/outbox.ts';
import type { DerivedEvent } from '../../src/events/types.ts';
import {
  addEndpoint,
  disableEndpoint,
  enableEndpoint,
  getEndpoint,
  KEPT_DISABLEMENTS,
  updateEndpointHealth,
} from '../../src/webhooks/endpoints.ts';
import { createInProcessDelivery } from '../../src/webhooks/inProcessQueue.ts';
import { RecoverError, recoverEndpoint } from '../../src/webhooks/recover.ts';
import { relayOnce } from '../../src/webhooks/relay.ts';
import { enqueueReplayDeliveries } from '../../src/webhooks/replay.ts';
import { createTestDatabase, LOCAL_RECEIVERS, type Responder, startReceiver, testEvent } from './harness.ts';

/**
 * `webhooks recover <endpoint> --since T` against a real receiver: it re-sends exactly what failed
 * or gave up since T and never succeeded, plus what the relay skipped while the endpoint was
 * disabled, each with its original webhook-id; nothing that succeeded, nothing still being retried,
 * nothing from before T, nothing of a type the endpoint does not want.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await database?.drop();
});

/** Answers per event id, attempt by attempt (the last one repeats); 200 for an event not listed. */
function scriptedAnswers(): { set: (id: string, statuses: number[]) => void; responder: Responder } {
  const script = new Map<string, number[]>();
  const seen = new Map<string, number>();
  return {
    set: (id, statuses) => script.set(id, statuses),
    responder: (request) => {
      const id = request.headers['webhook-id'] ?? '';
      const n = seen.get(id) ?? 0;
      seen.set(id, n + 1);
      const statuses = script.get(id) ?? [200];
      const status = statuses[Math.min(n, statuses.length - 1)] ?? 200;
      // A 503 asking for a day: the delivery stays pending (still being retried).
      return status === 503 ? { status, headers: { 'retry-after': '86400' } } : { status };
    },
  };
}

async function commit(events: DerivedEvent[]): Promise<void> {
  await writeEvents(database.pool, events, { stream: 'shipments', scope: 'ACC1', suppressed: false });
}

describe('webhooks recover', () => {
  it('re-sends exactly the failed set and the disabled period, with the same webhook-ids', async () => {
    const endpoint = await addEndpoint(
      database.pool,
      { url: receiver.url('/recover'), eventTypes: ['shipment.delivered', 'invoice.paid'] },
      LOCAL_RECEIVERS,
    );
    const answers = scriptedAnswers();
    receiver.on('/recover', endpoint.secret, answers.responder);
    let now = Date.now() - 3_600_000;
    const clock = () => new Date(now);
    // Two attempts in all: a second failure gives up.
    const sender = createInProcessDelivery({
      ...LOCAL_RECEIVERS,
      db: database.pool,
      now: clock,
      schedule: [0, 1000],
      random: () => 0.5,
    });
    const relay = () => relayOnce({ pool: database.pool, now: clock });

    // Before T: an event that gave up. Not part of a recover since T.
    const old = testEvent();
    answers.set(old.id, [500]);
    await commit([old]);
    await relay();
    await sender.runDue();
    now += 1000;
    await sender.runDue();
    now += 600_000;
    const since = clock();

    // Since T: succeeded after a failure, gave up, still retrying, then a 410 disables the endpoint.
    const [succeeded, gaveUp, retrying, gone] = [testEvent(), testEvent(), testEvent(), testEvent()];
    answers.set(succeeded.id, [500, 200]);
    answers.set(gaveUp.id, [500, 500]);
    answers.set(retrying.id, [503]);
    answers.set(gone.id, [410]);
    await commit([succeeded, gaveUp, retrying]);
    await relay();
    expect((await sender.runDue()).map((o) => o.kind)).toEqual(['retry', 'retry', 'retry']);
    now += 1000;
    expect((await sender.runDue()).map((o) => o.kind)).toEqual(['delivered', 'gave_up']);
    await commit([gone]);
    await relay();
    expect((await sender.runDue()).map((o) => o.kind)).toEqual(['gave_up']);
    expect(await getEndpoint(database.pool, endpoint.id)).toMatchObject({
      enabled: false,
      disabledBy: 'failure',
    });

    // While disabled: two wanted events and one of a type it does not want reach it not.
    const missed = [testEvent(), testEvent({ type: 'invoice.paid' })];
    const unwanted = testEvent({ type: 'order.status_changed' });
    await commit([...missed, unwanted]);
    await relay();
    await expect(recoverEndpoint(database.pool, endpoint.id, since, clock())).rejects.toThrow(RecoverError);
    await webhooksEnable(database.pool, endpoint.id, () => {});
    const after = testEvent();
    await commit([after]);
    await relay();
    expect((await sender.runDue()).map((o) => o.kind)).toEqual(['delivered']);
    const before = receiver.received('/recover').length;

    for (const event of [gaveUp, gone, ...missed]) answers.set(event.id, [200]);
    const printed: string[] = [];
    expect(await webhooksRecover(database.pool, endpoint.id, since, (l) => printed.push(l), clock())).toBe(
      true,
    );
    expect(printed).toEqual([
      `recovering 4 event(s) for ${endpoint.id} since ${since.toISOString()}: 2 failed or gave up, 2 missed while disabled; 1 other failed event(s) are still being retried on their schedule and are not sent twice; a running worker sends them with their original webhook-id.`,
    ]);
    expect((await sender.runDue()).map((o) => o.kind)).toEqual([
      'delivered',
      'delivered',
      'delivered',
      'delivered',
    ]);
    const resent = receiver.received('/recover').slice(before);
    expect(resent.every((r) => r.verified)).toBe(true);
    expect(resent.map((r) => r.headers['webhook-id']).sort()).toEqual(
      [gaveUp.id, gone.id, ...missed.map((e) => e.id)].sort(),
    );
    expect(resent.map((r) => JSON.parse(r.body).id).sort()).toEqual(
      resent.map((r) => r.headers['webhook-id']).sort(),
    );

    // Everything failed has now arrived: a second recover finds nothing (the retrying one stays).
    const again = await recoverEndpoint(database.pool, endpoint.id, since, clock());
    expect(again).toMatchObject({ failed: 0, missedWhileDisabled: 0, stillRetrying: 1, deliveries: [] });
  });

  it('does not re-send an event that reached the endpoint once its success attempt was pruned', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/pruned') }, LOCAL_RECEIVERS);
    const answers = scriptedAnswers();
    receiver.on('/pruned', endpoint.secret, answers.responder);
    let now = Date.now() - 3_600_000;
    const clock = () => new Date(now);
    const sender = createInProcessDelivery({
      ...LOCAL_RECEIVERS,
      db: database.pool,
      now: clock,
      schedule: [0, 1000],
      random: () => 0.5,
    });
    const event = testEvent();
    await commit([event]);
    await relayOnce({ pool: database.pool, now: clock });
    // (The first test's endpoint wants it too.)
    expect((await sender.runDue()).map((o) => o.kind)).toEqual(['delivered', 'delivered']);
    expect(receiver.received('/pruned').map((r) => r.headers['webhook-id'])).toEqual([event.id]);
    // Retention drops attempts after RETENTION_DELIVERIES_DAYS, delivery states only with their event.
    await database.pool.query('DELETE FROM sync.webhook_deliveries WHERE endpoint_id = $1', [endpoint.id]);
    now += 600_000;
    const since = clock();
    // Later, a replay of it fails until it gives up.
    answers.set(event.id, [500]);
    await enqueueReplayDeliveries(
      database.pool,
      [{ endpointId: endpoint.id, eventId: event.id, series: 'replay_pruned' }],
      clock(),
    );
    expect((await sender.runDue()).map((o) => o.kind)).toEqual(['retry']);
    now += 1000;
    expect((await sender.runDue()).map((o) => o.kind)).toEqual(['gave_up']);
    expect(await recoverEndpoint(database.pool, endpoint.id, since, clock())).toMatchObject({
      failed: 0,
      deliveries: [],
    });
  });

  it('refuses an unknown endpoint and one disabled by an operator', async () => {
    await expect(recoverEndpoint(database.pool, 'ep_nope', new Date(0))).rejects.toThrow(
      'No endpoint ep_nope: see `webhooks list`.',
    );
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/off') }, LOCAL_RECEIVERS);
    await webhooksDisable(database.pool, endpoint.id, () => {});
    await expect(recoverEndpoint(database.pool, endpoint.id, new Date(0))).rejects.toThrow(
      `Endpoint ${endpoint.id} is disabled (by hand): \`webhooks enable ${endpoint.id}\` first, then recover.`,
    );
  });

  it('keeps each disabled period with who disabled it, the newest 50 per endpoint', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/periods') }, LOCAL_RECEIVERS);
    const periods = async () =>
      (
        await database.pool.query(
          `SELECT disabled_by, reason, enabled_at IS NULL AS open FROM sync.webhook_endpoint_disablements
            WHERE endpoint_id = $1 ORDER BY id`,
          [endpoint.id],
        )
      ).rows;
    await updateEndpointHealth(database.pool, endpoint.id, {
      failingSince: new Date(),
      disableReason: 'receiver answered 410 Gone',
    });
    // Disabling again by hand takes the open period over; it opens no second one.
    await disableEndpoint(database.pool, endpoint.id);
    expect(await periods()).toEqual([{ disabled_by: 'operator', reason: 'by hand', open: true }]);
    await enableEndpoint(database.pool, endpoint.id);
    expect(await periods()).toEqual([{ disabled_by: 'operator', reason: 'by hand', open: false }]);
    for (let i = 0; i < KEPT_DISABLEMENTS + 5; i++) {
      await disableEndpoint(database.pool, endpoint.id);
      await enableEndpoint(database.pool, endpoint.id);
    }
    expect(await periods()).toHaveLength(KEPT_DISABLEMENTS);
    expect(await getEndpoint(database.pool, endpoint.id)).toMatchObject({ enabled: true, disabledBy: null });
  });
});
