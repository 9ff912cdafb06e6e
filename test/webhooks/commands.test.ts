import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  webhooksDisable,
  webhooksEnable,
  webhooksList,
  webhooksTest,
} from '../../src/cli/actions/webhooks.ts';
import { writeEvents } from '../../src/events/outbox.ts';
import { relayOnce } from '../../src/webhooks/delivery/relay/relay.ts';
import { addEndpoint, updateEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { replayEvents } from '../../src/webhooks/recovery/replay.ts';
import { runSourceCli } from '../helpers/cli.ts';
import {
  letWaitPass,
  startDeliveryEngine,
  stopDeliveryEngines,
  waitForAttempt,
  waitSettled,
} from '../helpers/deliveryEngine.ts';
import { compileSchema } from '../helpers/eventSchemaValidator.ts';
import { createTestDatabase, LOCAL_RECEIVERS, startReceiver, testEvent } from './harness.ts';

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

function printer() {
  const lines: string[] = [];
  return { lines, print: (line: string) => void lines.push(line) };
}

describe('webhooks enable and disable', () => {
  it('a disabled endpoint gets nothing, its pending retries included, until it is enabled again', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/toggle') }, LOCAL_RECEIVERS);
    let answer = 500;
    // The failure asks for a day before the retry, so the retry is still pending when it is disabled.
    receiver.on('/toggle', endpoint.secret, () =>
      answer === 500 ? { status: 500, headers: { 'retry-after': '86400' } } : { status: answer },
    );
    await startDeliveryEngine(database.url);
    const pending = testEvent();
    await writeEvents(database.pool, [pending], { stream: null, scope: null, suppressed: false });
    await waitForAttempt(database.pool, pending.id, 'failed');

    const out = printer();
    expect(await webhooksDisable(database.pool, endpoint.id, out.print)).toBe(true);
    expect(out.lines[0]).toMatch(/^disabled ep_\w+: nothing is sent to it until `webhooks enable ep_\w+`/);
    await webhooksList(database.pool, out.print);
    expect(out.lines[1]).toContain('disabled (by hand)');
    answer = 200;
    // The day passes: the retry comes due, and the worker drops it without sending.
    await letWaitPass(database.pool, endpoint.id);
    const [dropped] = await waitSettled(database.pool, [pending.id]);
    expect(dropped?.map((d) => [d.status, d.lastError])).toEqual([['skipped', 'endpoint disabled: by hand']]);
    const later = testEvent();
    await writeEvents(database.pool, [later], { stream: null, scope: null, suppressed: false });
    // Relayed to no one: the only endpoint is disabled.
    expect(await waitSettled(database.pool, [later.id])).toEqual([[]]);
    expect(receiver.received('/toggle')).toHaveLength(1);

    expect(await webhooksEnable(database.pool, endpoint.id, out.print)).toBe(true);
    await replayEvents(database.pool, { eventId: later.id });
    const [replayed] = await waitSettled(database.pool, [later.id]);
    expect(replayed?.map((d) => [d.series.slice(0, 7), d.status])).toEqual([['replay_', 'succeeded']]);
    expect(receiver.received('/toggle').map((r) => r.headers['webhook-id'])).toEqual([pending.id, later.id]);
    expect(await webhooksDisable(database.pool, 'ep_nope', out.print)).toBe(false);
    expect(out.lines.at(-1)).toBe('No endpoint ep_nope: see `webhooks list`.');
  });
});

describe('webhooks test', () => {
  /** Rows anything wrote for a message id: a test delivery must leave none. */
  async function storedRows(id: string): Promise<number> {
    const { rows } = await database.pool.query(
      `SELECT (SELECT count(*) FROM sync.events WHERE id = $1)
            + (SELECT count(*) FROM sync.webhook_deliveries WHERE event_id = $1)
            + (SELECT count(*) FROM sync.webhook_delivery_states WHERE event_id = $1) AS n`,
      [id],
    );
    return Number(rows[0].n);
  }

  it('sends a signed webhook.test ping marked as a test, with the custom headers, storing nothing', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/ping') }, LOCAL_RECEIVERS);
    await updateEndpoint(database.pool, endpoint.id, { headerArguments: ['X-Tenant=acme'] }, LOCAL_RECEIVERS);
    receiver.on('/ping', endpoint.secret, () => ({ status: 202 }));
    const out = printer();
    expect(await webhooksTest(database.pool, endpoint.id, out.print, LOCAL_RECEIVERS)).toBe(true);
    expect(out.lines).toHaveLength(1);
    expect(out.lines[0]).toMatch(
      /^delivered: webhook\.test, HTTP 202 in \d+ ms \(webhook-id evt_[0-9a-f]{32}\)$/,
    );
    const [got] = receiver.received('/ping');
    expect(got?.verified).toBe(true);
    expect(got?.headers['x-tenant']).toBe('acme');
    const body = JSON.parse(got?.body ?? '{}');
    expect(body).toMatchObject({
      type: 'webhook.test',
      test: true,
      subject: { kind: 'endpoint', key: endpoint.id },
    });
    expect(got?.headers['webhook-id']).toBe(body.id);
    // Not an event: nothing in the outbox, no delivery rows, nothing for the relay or a replay.
    expect(await storedRows(body.id)).toBe(0);
    expect(await relayOnce({ pool: database.pool })).toMatchObject({ events: 0 });
    const around = { from: new Date(Date.now() - 60_000), to: new Date(Date.now() + 60_000) };
    expect(await replayEvents(database.pool, around)).toMatchObject({ events: 0, jobs: 0 });
  });

  it('--type sends an example of that event type that its published schema accepts', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/example') }, LOCAL_RECEIVERS);
    receiver.on('/example', endpoint.secret, () => ({ status: 200 }));
    const out = printer();
    expect(await webhooksTest(database.pool, endpoint.id, out.print, LOCAL_RECEIVERS, 'invoice.paid')).toBe(
      true,
    );
    expect(out.lines[0]).toMatch(/^delivered: invoice\.paid, HTTP 200/);
    const [got] = receiver.received('/example');
    expect(got?.verified).toBe(true);
    const body = JSON.parse(got?.body ?? '{}');
    expect(body).toMatchObject({ type: 'invoice.paid', test: true });
    const validate = compileSchema('invoice.paid');
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    expect(await storedRows(body.id)).toBe(0);
    await expect(
      webhooksTest(database.pool, endpoint.id, out.print, LOCAL_RECEIVERS, 'invoice.nope'),
    ).rejects.toThrow(/^Unknown event type "invoice.nope"/);
  });

  it('reports a failing receiver once, with no retry, and exits 1; also to a disabled endpoint', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/ping-down') }, LOCAL_RECEIVERS);
    receiver.on('/ping-down', endpoint.secret, () => ({ status: 503, body: 'maintenance' }));
    await webhooksDisable(database.pool, endpoint.id, () => {});
    const out = printer();
    expect(await webhooksTest(database.pool, endpoint.id, out.print, LOCAL_RECEIVERS)).toBe(false);
    expect(out.lines[0]).toMatch(
      /^failed: receiver answered HTTP 503 in \d+ ms \(webhook-id evt_[0-9a-f]{32}\)$/,
    );
    const messageId = /evt_[0-9a-f]{32}/.exec(out.lines[0] ?? '')?.[0] ?? '';
    expect(await storedRows(messageId)).toBe(0);
    expect(receiver.received('/ping-down')).toHaveLength(1);
  });

  it('refuses a private target through the same checks as any delivery', async () => {
    const endpoint = await addEndpoint(
      database.pool,
      { url: receiver.url('/ping-private') },
      LOCAL_RECEIVERS,
    );
    const out = printer();
    const strict = { policy: { allowPrivateTargets: false } };
    expect(await webhooksTest(database.pool, endpoint.id, out.print, strict)).toBe(false);
    expect(out.lines[0]).toMatch(/^failed: refused target: 127\.0\.0\.1 is a loopback address/);
    expect(receiver.received('/ping-private')).toHaveLength(0);
    expect(await webhooksTest(database.pool, 'ep_nope', out.print, strict)).toBe(false);
    expect(out.lines.at(-1)).toBe('No endpoint ep_nope: see `webhooks list`.');
  });

  it('runs from the command line: one line, exit 0 when delivered, exit 1 for an unknown endpoint', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/ping-cli') }, LOCAL_RECEIVERS);
    receiver.on('/ping-cli', endpoint.secret, () => ({ status: 200 }));
    // Async: the receiver answers from this process's event loop.
    const run = (id: string) =>
      runSourceCli(['webhooks', 'test', id], {
        env: {
          ...process.env,
          DATABASE_URL: database.url,
          LOG_LEVEL: 'silent',
          WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
        },
      });
    const delivered = await run(endpoint.id);
    expect(delivered.code).toBe(0);
    expect(delivered.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^delivered: webhook\.test, HTTP 200 in \d+ ms/),
    ]);
    const unknown = await run('ep_nope');
    expect(unknown.code).toBe(1);
    expect(unknown.stdout.trim().split('\n')).toEqual(['No endpoint ep_nope: see `webhooks list`.']);
  });
});
