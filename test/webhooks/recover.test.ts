import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
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
} from '../../src/webhooks/endpoints/endpoints.ts';
import { RecoverError, recoverEndpoint } from '../../src/webhooks/recovery/recover.ts';
import { enqueueReplayDeliveries } from '../../src/webhooks/recovery/replay.ts';
import {
  deliveriesOf,
  QUICK_RETRIES,
  startDeliveryEngine,
  stopDeliveryEngines,
  waitForAttempt,
  waitRelayed,
  waitSettled,
} from '../helpers/deliveryEngine.ts';
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
afterEach(() => stopDeliveryEngines());
afterAll(async () => {
  await receiver?.close();
  await database?.drop();
});

/** A worker's delivery engine whose retries come within a second (ten attempts in all). */
const startEngine = () => startDeliveryEngine(database.url, { env: QUICK_RETRIES });

/** A 500 asking to be retried in a day: the delivery stays pending (still being retried). */
const RETRY_TOMORROW = 'retry tomorrow';

/** Answers per event id, attempt by attempt (the last one repeats); 200 for an event not listed. */
function scriptedAnswers(): {
  set: (id: string, statuses: Array<number | typeof RETRY_TOMORROW>) => void;
  responder: Responder;
} {
  const script = new Map<string, Array<number | typeof RETRY_TOMORROW>>();
  const seen = new Map<string, number>();
  return {
    set: (id, statuses) => script.set(id, statuses),
    responder: (request) => {
      const id = request.headers['webhook-id'] ?? '';
      const n = seen.get(id) ?? 0;
      seen.set(id, n + 1);
      const statuses = script.get(id) ?? [200];
      const status = statuses[Math.min(n, statuses.length - 1)] ?? 200;
      // Not a 503: a 503 with Retry-After pauses the whole endpoint that long, every delivery included.
      return status === RETRY_TOMORROW ? { status: 500, headers: { 'retry-after': '86400' } } : { status };
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
    await startEngine();
    const received = () => receiver.received('/recover');

    // Before T: an event that gave up (ten failed attempts). Not part of a recover since T.
    const old = testEvent();
    answers.set(old.id, [500]);
    await commit([old]);
    await waitForAttempt(database.pool, old.id, 'gave_up');
    const since = new Date();

    // Since T: succeeded after a failure, gave up, still retrying, then a 410 disables the endpoint.
    const [succeeded, gaveUp, retrying, gone] = [testEvent(), testEvent(), testEvent(), testEvent()];
    answers.set(succeeded.id, [500, 200]);
    answers.set(gaveUp.id, [500]);
    answers.set(retrying.id, [RETRY_TOMORROW]);
    answers.set(gone.id, [410]);
    await commit([succeeded, gaveUp, retrying]);
    await waitForAttempt(database.pool, succeeded.id, 'succeeded');
    await waitForAttempt(database.pool, gaveUp.id, 'gave_up');
    await waitForAttempt(database.pool, retrying.id, 'failed');
    const [stillPending] = await deliveriesOf(database.pool, retrying.id);
    expect(stillPending).toMatchObject({ status: 'pending', attemptsMade: 1 });
    await commit([gone]);
    await waitForAttempt(database.pool, gone.id, 'gave_up');
    expect(await getEndpoint(database.pool, endpoint.id)).toMatchObject({
      enabled: false,
      disabledBy: 'failure',
    });

    // While disabled: two wanted events and one of a type it does not want reach it not.
    const missed = [testEvent(), testEvent({ type: 'invoice.paid' })];
    const unwanted = testEvent({ type: 'order.status_changed' });
    await commit([...missed, unwanted]);
    await waitRelayed(
      database.pool,
      [...missed, unwanted].map((e) => e.id),
    );
    await expect(recoverEndpoint(database.pool, endpoint.id, since)).rejects.toThrow(RecoverError);
    await webhooksEnable(database.pool, endpoint.id, () => {});
    const after = testEvent();
    await commit([after]);
    expect((await waitSettled(database.pool, [after.id]))[0]?.map((d) => d.status)).toEqual(['succeeded']);
    const before = received().length;

    for (const event of [gaveUp, gone, ...missed]) answers.set(event.id, [200]);
    const printed: string[] = [];
    expect(await webhooksRecover(database.pool, endpoint.id, since, (l) => printed.push(l))).toBe(true);
    expect(printed).toEqual([
      `recovering 4 event(s) for ${endpoint.id} since ${since.toISOString()}: 2 failed or gave up, 2 missed while disabled; 1 other failed event(s) are still being retried on their schedule and are not sent twice; a running worker sends them with their original webhook-id.`,
    ]);
    const recovered = [gaveUp, gone, ...missed].map((e) => e.id);
    const settled = await waitSettled(database.pool, recovered);
    expect(settled.map((deliveries) => deliveries.at(-1)?.status)).toEqual([
      'succeeded',
      'succeeded',
      'succeeded',
      'succeeded',
    ]);
    const resent = received().slice(before);
    expect(resent.every((r) => r.verified)).toBe(true);
    expect(resent.map((r) => r.headers['webhook-id']).sort()).toEqual([...recovered].sort());
    expect(resent.map((r) => JSON.parse(r.body).id).sort()).toEqual(
      resent.map((r) => r.headers['webhook-id']).sort(),
    );

    // Everything failed has now arrived: a second recover finds nothing (the retrying one stays).
    const again = await recoverEndpoint(database.pool, endpoint.id, since);
    expect(again).toMatchObject({ failed: 0, missedWhileDisabled: 0, stillRetrying: 1, deliveries: [] });
  });

  it('does not re-send an event that reached the endpoint once its success attempt was pruned', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/pruned') }, LOCAL_RECEIVERS);
    const answers = scriptedAnswers();
    receiver.on('/pruned', endpoint.secret, answers.responder);
    await startEngine();
    const event = testEvent();
    await commit([event]);
    // (The first test's endpoint wants it too.)
    const [delivered] = await waitSettled(database.pool, [event.id]);
    expect(delivered?.map((d) => d.status)).toEqual(['succeeded', 'succeeded']);
    expect(receiver.received('/pruned').map((r) => r.headers['webhook-id'])).toEqual([event.id]);
    // Retention drops attempts after RETENTION_DELIVERIES_DAYS, delivery states only with their event.
    await database.pool.query('DELETE FROM sync.webhook_deliveries WHERE endpoint_id = $1', [endpoint.id]);
    const since = new Date();
    // Later, a replay of it fails until it gives up.
    answers.set(event.id, [500]);
    await enqueueReplayDeliveries(
      database.pool,
      [{ endpointId: endpoint.id, eventId: event.id, series: 'replay_pruned' }],
      new Date(),
    );
    const attempts = await waitForAttempt(database.pool, event.id, 'gave_up', endpoint.id);
    expect(attempts.every((a) => a.series === 'replay_pruned' && a.responseCode === 500)).toBe(true);
    expect(await recoverEndpoint(database.pool, endpoint.id, since)).toMatchObject({
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
