import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import { listAttempts } from '../../src/webhooks/deliveries.ts';
import { addEndpoint } from '../../src/webhooks/endpoints.ts';
import { startDeliveryEngine, stopDeliveryEngines, waitSettled } from '../helpers/deliveryEngine.ts';
import { createTestDatabase, LOCAL_RECEIVERS, startReceiver, testEvent } from './harness.ts';

/**
 * What each receiver answered is stored: a body with a NUL byte (which Postgres text cannot hold)
 * must not keep the outcomes of a group commit from being recorded.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
});
afterAll(async () => {
  await stopDeliveryEngines();
  await receiver?.close();
  await database?.drop();
});

describe('what the receiver answered', () => {
  it('stores an answer with a NUL byte, and every other outcome beside it', async () => {
    const nul = await addEndpoint(database.pool, { url: receiver.url('/nul') }, LOCAL_RECEIVERS);
    const plain = await addEndpoint(database.pool, { url: receiver.url('/plain') }, LOCAL_RECEIVERS);
    receiver.on('/nul', nul.secret, () => ({ status: 200, body: 'ok\u0000binary' }));
    receiver.on('/plain', plain.secret, () => ({ status: 200, body: 'fine' }));
    await startDeliveryEngine(database.url);
    const event = testEvent();
    await writeEvents(database.pool, [event], { stream: 'shipments', scope: 'A1', suppressed: false });
    const [deliveries] = await waitSettled(database.pool, [event.id]);
    expect(deliveries?.map((d) => [d.endpointId, d.status]).sort()).toEqual(
      [
        [nul.id, 'succeeded'],
        [plain.id, 'succeeded'],
      ].sort(),
    );
    const attempts = (await listAttempts(database.pool, event.id)).filter((a) => a.endpointId === nul.id);
    expect(attempts).toMatchObject([
      { status: 'succeeded', responseCode: 200, responseBody: 'ok\uFFFDbinary' },
    ]);
    await stopDeliveryEngines();
  });
});
