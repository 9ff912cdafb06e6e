import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { type CliResult, linesOf, runCliInProcess, runSourceCli } from '../helpers/cli.ts';
import { startDeliveryEngine, stopDeliveryEngines, waitSettled } from '../helpers/deliveryEngine.ts';
import { createTestDatabase, LOCAL_RECEIVERS, startReceiver, testEvent } from '../webhooks/harness.ts';

/**
 * `events get <id>` prints a stored event exactly as its webhook body carries it: compared with
 * the body a receiver got from the production delivery engine.
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

function env(): NodeJS.ProcessEnv {
  return { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' };
}

function cli(args: string[]): Promise<CliResult> {
  return runCliInProcess(args, env());
}

describe('events get', () => {
  it('prints the stored event as the webhook body carries it, on one line or indented', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/body') }, LOCAL_RECEIVERS);
    receiver.on('/body', endpoint.secret, () => ({ status: 204 }));
    await startDeliveryEngine(database.url);
    const event = testEvent({
      type: 'shipment.status_changed',
      data: {
        current: { header: { containerId: 'C9', statusCode: 'SHIPPED', note: 'crème brûlée\nfragile' } },
        previous: { header: { containerId: 'C9', statusCode: 'PACKED' } },
        changes: [{ field: 'header.statusCode', from: 'PACKED', to: 'SHIPPED' }],
      },
    });
    await writeEvents(database.pool, [event], { stream: 'shipments', scope: 'A1', suppressed: false });
    await waitSettled(database.pool, [event.id]);
    const [delivered] = receiver.received('/body');
    expect(delivered?.verified).toBe(true);

    const plain = await cli(['events', 'get', event.id]);
    expect(plain.code, plain.stderr).toBe(0);
    expect(linesOf(plain.stdout)).toHaveLength(1);
    expect(plain.stdout.trimEnd()).toBe(delivered?.body);
    expect(JSON.parse(plain.stdout)).toEqual({
      id: event.id,
      type: 'shipment.status_changed',
      occurredAt: event.occurredAt,
      detectedAt: event.detectedAt,
      subject: event.subject,
      data: event.data,
    });

    const pretty = await cli(['events', 'get', event.id, '--pretty']);
    expect(pretty.code).toBe(0);
    expect(pretty.stdout).toBe(`${JSON.stringify(JSON.parse(delivered?.body ?? ''), null, 2)}\n`);
  });

  it('says there is no such event in one line, exit 1, as a real process too', async () => {
    const missing = await cli(['events', 'get', 'evt_nope']);
    expect([missing.code, linesOf(missing.stderr), missing.stdout]).toEqual([
      1,
      ['error: No event evt_nope in sync.events (see `events tail` or `webhooks attempts`).'],
      '',
    ]);
    const real = await runSourceCli(['events', 'get', 'evt_nope'], { env: env() });
    expect([real.code, linesOf(real.stderr).length, real.stdout]).toEqual([1, 1, '']);
    const noId = await cli(['events', 'get']);
    expect([noId.code, linesOf(noId.stderr)]).toEqual([
      2,
      [expect.stringMatching(/^error: missing required argument 'id'/)],
    ]);
  });
});
