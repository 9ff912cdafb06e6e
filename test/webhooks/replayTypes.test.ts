import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webhooksRecover, webhooksReplay } from '../../src/cli/actions/webhooks.ts';
import { writeEvents } from '../../src/events/outbox.ts';
import type { DerivedEvent } from '../../src/events/types.ts';
import { startWebhookDelivery } from '../../src/webhooks/delivery/runtime.ts';
import { addEndpoint, type Endpoint, updateEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { waitFor } from '../helpers/waitFor.ts';
import { startGatedReceiver } from './gatedReceiver.ts';
import { createTestDatabase, LOCAL_RECEIVERS, testEvent } from './harness.ts';

/**
 * `webhooks replay` and `webhooks recover` send an endpoint only the event types it subscribes to,
 * through a running worker's production dispatcher: docs/events.md recommends `replay --endpoint`
 * for a new endpoint, which must not receive every type of the range.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let receiver: Awaited<ReturnType<typeof startGatedReceiver>>;
const running: Array<() => Promise<void>> = [];
const errors: Error[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startGatedReceiver();
});
afterEach(async () => {
  for (const stop of running.splice(0).reverse()) await stop();
  // Each test's endpoints are its own.
  await database.pool.query('UPDATE sync.webhook_endpoints SET enabled = false');
});
afterAll(async () => {
  await receiver?.close();
  await database?.drop();
});

async function startWorker(schedule: readonly number[] = [0, 100]) {
  const delivery = await startWebhookDelivery({
    ...LOCAL_RECEIVERS,
    pool: database.pool,
    databaseUrl: database.url,
    schedule,
    relayIntervalMs: 100,
    pollIntervalMs: 100,
    onError: (error) => errors.push(error),
  });
  running.push(() => delivery.close());
}

async function endpoint(path: string, types: string[]): Promise<Endpoint> {
  return addEndpoint(database.pool, { url: receiver.url(path), eventTypes: types }, LOCAL_RECEIVERS);
}

/** Events of three types, all occurring at `occurredAt`: two of each. */
function mixedEvents(occurredAt: string): DerivedEvent[] {
  return ['inventory.out_of_stock', 'inventory.changed', 'shipment.delivered'].flatMap((type) => [
    testEvent({ type: type as DerivedEvent['type'], occurredAt }),
    testEvent({ type: type as DerivedEvent['type'], occurredAt }),
  ]);
}

async function unfinished(): Promise<number> {
  const { rows } = await database.pool.query(
    `SELECT count(*)::int AS n FROM sync.webhook_delivery_states WHERE status = 'pending'`,
  );
  return rows[0].n;
}

const typesAt = (path: string) => receiver.received(path).map((r) => r.type);

describe('replay honours the endpoint’s types', () => {
  it('replay --endpoint of an endpoint subscribed to one type delivers only that type', async () => {
    const events = mixedEvents('2030-01-10T00:00:00.000Z');
    // A backfill's events: stored, never dispatched.
    await writeEvents(database.pool, events, { stream: null, scope: null, suppressed: true });
    const fresh = await endpoint('/new', ['inventory.out_of_stock']);
    await startWorker();
    const printed: string[] = [];
    await webhooksReplay(
      database.pool,
      { from: new Date('2030-01-10T00:00:00Z'), to: new Date('2030-01-11T00:00:00Z') },
      fresh.id,
      (line) => printed.push(line),
    );
    await waitFor('the replay to be sent', async () => (await unfinished()) === 0, 30_000);
    expect({ printed, types: typesAt('/new') }).toEqual({
      printed: [
        `queued 2 delivery(ies) of 6 event(s), the 4 other(s) of types ${fresh.id} does not take; a running worker sends them now.`,
      ],
      types: ['inventory.out_of_stock', 'inventory.out_of_stock'],
    });
    expect(errors).toEqual([]);
  });

  it('replay --event of a type the endpoint does not take queues nothing and says why', async () => {
    const [event] = mixedEvents('2030-02-10T00:00:00.000Z').filter((e) => e.type === 'shipment.delivered');
    await writeEvents(database.pool, [event as DerivedEvent], {
      stream: null,
      scope: null,
      suppressed: true,
    });
    const narrow = await endpoint('/narrow', ['inventory.out_of_stock']);
    const error = await webhooksReplay(
      database.pool,
      { eventId: event?.id as string },
      narrow.id,
      () => {},
    ).catch((e: Error) => e);
    expect(error instanceof Error ? error.message : error).toBe(
      `1 event(s) matched but endpoint ${narrow.id} takes none of their types (shipment.delivered): nothing to replay (its types: inventory.out_of_stock).`,
    );
    expect(await unfinished()).toBe(0);
  });

  it('replay without --endpoint sends each endpoint its own types only', async () => {
    const events = mixedEvents('2030-03-10T00:00:00.000Z');
    await writeEvents(database.pool, events, { stream: null, scope: null, suppressed: true });
    await endpoint('/stock', ['inventory.out_of_stock', 'inventory.changed']);
    await endpoint('/ships', ['shipment.delivered']);
    await endpoint('/all', []);
    await startWorker();
    await webhooksReplay(
      database.pool,
      { from: new Date('2030-03-10T00:00:00Z'), to: new Date('2030-03-11T00:00:00Z') },
      undefined,
      () => {},
    );
    await waitFor('the replay to be sent', async () => (await unfinished()) === 0, 30_000);
    expect({
      stock: typesAt('/stock').sort(),
      ships: typesAt('/ships'),
      all: typesAt('/all').length,
    }).toEqual({
      stock: ['inventory.changed', 'inventory.changed', 'inventory.out_of_stock', 'inventory.out_of_stock'],
      ships: ['shipment.delivered', 'shipment.delivered'],
      all: 6,
    });
  });
});

describe('recover honours the endpoint’s current types', () => {
  it('a type the endpoint no longer takes is not re-sent', async () => {
    const target = await endpoint('/narrowed', ['inventory.out_of_stock', 'shipment.delivered']);
    // Every attempt fails and one attempt is all there is: each delivery gives up.
    receiver.answer('/narrowed', 500);
    await startWorker([0]);
    const since = new Date(Date.now() - 60_000);
    const events = mixedEvents('2030-04-10T00:00:00.000Z');
    await writeEvents(database.pool, events, { stream: 'shipments', scope: 'ACC1', suppressed: false });
    await waitFor('4 deliveries to give up', async () => {
      const { rows } = await database.pool.query(
        `SELECT count(*)::int AS n FROM sync.webhook_delivery_states WHERE endpoint_id = $1 AND status = 'gave_up'`,
        [target.id],
      );
      return rows[0].n === 4;
    });
    receiver.answer('/narrowed', 200);
    const before = receiver.received('/narrowed').length;
    await updateEndpoint(
      database.pool,
      target.id,
      { eventTypes: ['inventory.out_of_stock'] },
      LOCAL_RECEIVERS,
    );
    const printed: string[] = [];
    await webhooksRecover(database.pool, target.id, since, (line) => printed.push(line));
    await waitFor('the recover to be sent', async () => (await unfinished()) === 0, 30_000);
    expect(
      receiver
        .received('/narrowed')
        .slice(before)
        .map((r) => r.type),
    ).toEqual(['inventory.out_of_stock', 'inventory.out_of_stock']);
    expect(printed[0]).toMatch(/^recovering 2 event\(s\)/);
  });
});
