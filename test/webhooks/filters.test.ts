import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import type { DerivedEvent, EventType, SubjectKind } from '../../src/events/types.ts';
import {
  addEndpoint,
  disableEndpoint,
  type Endpoint,
  enableEndpoint,
} from '../../src/webhooks/endpoints/endpoints.ts';
import { recoverEndpoint } from '../../src/webhooks/recovery/recover.ts';
import { replayEvents } from '../../src/webhooks/recovery/replay.ts';
import {
  deliveriesOf,
  startDeliveryEngine,
  stopDeliveryEngines,
  until,
  waitRelayed,
  waitSettled,
} from '../helpers/deliveryEngine.ts';
import { createTestDatabase, LOCAL_RECEIVERS, startReceiver, testEvent } from './harness.ts';

/**
 * Which events an endpoint gets, through the production engine to a real receiver: family
 * patterns (`shipment.*`) and the scope filter (accounts, suppliers), as the relay fans out, and as
 * `webhooks replay` and `webhooks recover` choose. An event without a scope reaches only endpoints
 * without a scope filter.
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

/** An event of a stream and scope, committed as the sync commits one. */
async function commitEvent(
  type: EventType,
  stream: string | null,
  scope: string | null,
  overrides: Partial<DerivedEvent> = {},
): Promise<DerivedEvent> {
  const kind = type.slice(0, type.indexOf('.')) as SubjectKind;
  const event = testEvent({ type, subject: { kind, key: `${type}-${scope}` }, ...overrides });
  await writeEvents(database.pool, [event], { stream, scope, suppressed: false });
  return event;
}

async function endpointAt(
  path: string,
  filter: Partial<Pick<Endpoint, 'eventTypes' | 'accountNumbers' | 'supplierIds'>>,
) {
  const endpoint = await addEndpoint(database.pool, { url: receiver.url(path), ...filter }, LOCAL_RECEIVERS);
  receiver.on(path, endpoint.secret, () => ({ status: 200 }));
  return endpoint;
}

/** The webhook-ids a path received, each verified with its endpoint's secret. */
function receivedIds(path: string): string[] {
  const got = receiver.received(path);
  expect(got.every((r) => r.verified)).toBe(true);
  return got.map((r) => r.headers['webhook-id'] ?? '').sort();
}

describe('endpoint filters', () => {
  it('the relay sends each endpoint the types and scopes it asked for, and only those', async () => {
    const family = await endpointAt('/family', { eventTypes: ['shipment.*'] });
    const account = await endpointAt('/account', { accountNumbers: ['A1'] });
    const supplier = await endpointAt('/supplier', { supplierIds: ['S1'] });
    const narrow = await endpointAt('/narrow', { eventTypes: ['order.*'], accountNumbers: ['A1'] });
    const every = await endpointAt('/every', {});
    await startDeliveryEngine(database.url);

    const shippedA1 = await commitEvent('shipment.delivered', 'shipments', 'A1');
    const createdA2 = await commitEvent('shipment.created', 'shipments', 'A2');
    const holdA1 = await commitEvent('order.hold_added', 'orders', 'A1');
    const stockS1 = await commitEvent('inventory.changed', 'inventory', 'S1');
    // A supplier whose id is spelled like the account: its events are no account's.
    const stockNamedA1 = await commitEvent('inventory.low_stock', 'inventory', 'A1');
    const unscoped = await commitEvent('shipment.exception', null, null);
    const all = [shippedA1, createdA2, holdA1, stockS1, stockNamedA1, unscoped];
    await waitSettled(
      database.pool,
      all.map((e) => e.id),
    );
    const ids = (...events: DerivedEvent[]) => events.map((e) => e.id).sort();
    expect(receivedIds('/family')).toEqual(ids(shippedA1, createdA2, unscoped));
    expect(receivedIds('/account')).toEqual(ids(shippedA1, holdA1));
    expect(receivedIds('/supplier')).toEqual(ids(stockS1));
    expect(receivedIds('/narrow')).toEqual(ids(holdA1));
    expect(receivedIds('/every')).toEqual(ids(...all));
    expect([family, account, supplier, narrow, every].every((e) => e.id.startsWith('ep_'))).toBe(true);
  });

  it('replay sends a range to the endpoints whose filters want each event', async () => {
    const family = await endpointAt('/replay-family', { eventTypes: ['invoice.*'] });
    const account = await endpointAt('/replay-account', { accountNumbers: ['A9'] });
    const at = '2031-05-01T10:00:00.000Z';
    // Stored as history (suppressed): only a replay sends them.
    const paid = testEvent({ type: 'invoice.paid', occurredAt: at, subject: { kind: 'invoice', key: 'I1' } });
    const hold = testEvent({
      type: 'order.hold_added',
      occurredAt: at,
      subject: { kind: 'order', key: 'O1' },
    });
    await writeEvents(database.pool, [paid], { stream: 'invoices', scope: 'A8', suppressed: true });
    await writeEvents(database.pool, [hold], { stream: 'orders', scope: 'A9', suppressed: true });
    await startDeliveryEngine(database.url);
    const replayed = await replayEvents(database.pool, {
      from: new Date('2031-05-01T00:00:00Z'),
      to: new Date('2031-05-02T00:00:00Z'),
    });
    const jobs = replayed.deliveries.filter((d) => [family.id, account.id].includes(d.endpointId));
    expect(jobs.map((d) => [d.endpointId, d.eventId]).sort()).toEqual(
      [
        [family.id, paid.id],
        [account.id, hold.id],
      ].sort(),
    );
    // History is never relayed (waitSettled waits for that): wait for the replay's deliveries.
    await until('the replayed deliveries finished', async () => {
      const states = [
        ...(await deliveriesOf(database.pool, paid.id)),
        ...(await deliveriesOf(database.pool, hold.id)),
      ];
      return states.length === replayed.jobs && states.every((s) => s.status !== 'pending');
    });
    expect(receivedIds('/replay-family')).toEqual([paid.id]);
    expect(receivedIds('/replay-account')).toEqual([hold.id]);
  });

  it('recover re-sends what a disabled endpoint missed within its scopes only', async () => {
    const endpoint = await endpointAt('/recover-scoped', {
      accountNumbers: ['A5'],
      eventTypes: ['return.*'],
    });
    const since = new Date(Date.now() - 60_000);
    await disableEndpoint(database.pool, endpoint.id);
    await startDeliveryEngine(database.url);
    const wanted = await commitEvent('return.created', 'returns', 'A5');
    const otherAccount = await commitEvent('return.created', 'returns', 'A6');
    const otherType = await commitEvent('shipment.created', 'shipments', 'A5');
    await waitRelayed(
      database.pool,
      [wanted, otherAccount, otherType].map((e) => e.id),
    );
    await enableEndpoint(database.pool, endpoint.id);
    const recovered = await recoverEndpoint(database.pool, endpoint.id, since);
    expect(recovered.deliveries.map((d) => d.eventId)).toEqual([wanted.id]);
    await waitSettled(database.pool, [wanted.id]);
    expect(receivedIds('/recover-scoped')).toEqual([wanted.id]);
  });
});
