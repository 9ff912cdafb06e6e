import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhooksGet, webhooksUpdate } from '../../src/cli/actions/webhookEndpointCommands.ts';
import { webhooksList } from '../../src/cli/actions/webhooks.ts';
import { writeEvents } from '../../src/events/outbox.ts';
import { EndpointSettingError } from '../../src/webhooks/endpoints/endpointSettings.ts';
import { addEndpoint, getEndpoint, updateEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { listAttempts } from '../../src/webhooks/views/deliveries.ts';
import { startDeliveryEngine, stopDeliveryEngines, waitSettled } from '../helpers/deliveryEngine.ts';
import { createTestDatabase, LOCAL_RECEIVERS, type Received, startReceiver, testEvent } from './harness.ts';

/**
 * `webhooks get` and `webhooks update` against a real receiver: an update changes the endpoint in
 * place, so deliveries signed before and after it verify with the one secret `add` printed, and its
 * delivery history stays; custom headers go with every delivery but never replace the signature.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
beforeAll(async () => {
  database = await createTestDatabase();
  receiver = await startReceiver();
  // A worker sends what the tests commit, as it would beside the CLI.
  await startDeliveryEngine(database.url);
});
afterAll(async () => {
  await stopDeliveryEngines();
  await receiver?.close();
  await database?.drop();
});

function printer() {
  const lines: string[] = [];
  return { lines, print: (line: string) => void lines.push(line) };
}

/** Commits an event and waits for the worker to have sent it wherever it goes; `outcomes`: how each delivery ended. */
async function deliverOne(type: 'shipment.delivered' | 'invoice.paid' = 'shipment.delivered') {
  const event = testEvent({ type });
  await writeEvents(database.pool, [event], { stream: null, scope: null, suppressed: false });
  const [deliveries] = await waitSettled(database.pool, [event.id]);
  return { event, outcomes: (deliveries ?? []).map((d) => d.status) };
}

/** Verifies a received request with the reference library and one secret. */
function verifiesWith(secret: string, request: Received | undefined): boolean {
  try {
    new Webhook(secret).verify(request?.body ?? '', request?.headers ?? {});
    return true;
  } catch {
    return false;
  }
}

describe('webhooks update', () => {
  it('changes URL, types, description, headers, rate limit and metadata in place, keeping secret and history', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/before') }, LOCAL_RECEIVERS);
    const secret = endpoint.secret;
    receiver.on('/before', secret, () => ({ status: 200 }));
    receiver.on('/after', secret, () => ({ status: 200 }));
    const first = await deliverOne();
    expect(first.outcomes).toEqual(['succeeded']);

    const out = printer();
    await webhooksUpdate(
      database.pool,
      endpoint.id,
      {
        url: receiver.url('/after'),
        eventTypes: ['invoice.paid'],
        description: 'ERP ingest',
        headerArguments: ['X-Tenant=acme', 'Authorization=Bearer s3cr3t-token-value'],
        rateLimit: '50/s',
        metadata: '{"team":"ops","ticket":42}',
      },
      out.print,
      LOCAL_RECEIVERS,
    );
    expect(out.lines[0]).toBe(`updated ${endpoint.id} (secret and delivery history kept):`);
    const stored = await getEndpoint(database.pool, endpoint.id);
    expect(stored).toMatchObject({
      id: endpoint.id,
      url: receiver.url('/after'),
      eventTypes: ['invoice.paid'],
      description: 'ERP ingest',
      secret,
      headers: { 'x-tenant': 'acme', authorization: 'Bearer s3cr3t-token-value' },
      rateLimitPerSecond: 50,
      metadata: { team: 'ops', ticket: 42 },
      enabled: true,
    });
    const { rows } = await database.pool.query(
      'SELECT rate_limit_per_second FROM sync.webhook_endpoints WHERE id = $1',
      [endpoint.id],
    );
    expect(rows[0].rate_limit_per_second).toBe(50);

    // A type it no longer wants is not sent; one it wants goes to the new URL.
    expect((await deliverOne('shipment.delivered')).outcomes).toEqual([]);
    const second = await deliverOne('invoice.paid');
    expect(second.outcomes).toEqual(['succeeded']);

    // Signed before and after the update: both verify with the secret `add` printed.
    const [before] = receiver.received('/before');
    const [after] = receiver.received('/after');
    expect(verifiesWith(secret, before)).toBe(true);
    expect(verifiesWith(secret, after)).toBe(true);
    expect(after?.headers['webhook-id']).toBe(second.event.id);
    expect(after?.headers['x-tenant']).toBe('acme');
    expect(after?.headers.authorization).toBe('Bearer s3cr3t-token-value');
    expect(after?.headers['content-type']).toBe('application/json');
    // The history before the update is still there.
    expect(await listAttempts(database.pool, first.event.id)).toMatchObject([
      { endpointId: endpoint.id, status: 'succeeded' },
    ]);

    // A header set to nothing is removed; the others stay.
    await updateEndpoint(
      database.pool,
      endpoint.id,
      { headerArguments: ['authorization='] },
      LOCAL_RECEIVERS,
    );
    expect((await getEndpoint(database.pool, endpoint.id))?.headers).toEqual({ 'x-tenant': 'acme' });
  });

  it('never lets a stored custom header replace the signature or content type', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/forged') }, LOCAL_RECEIVERS);
    receiver.on('/forged', endpoint.secret, () => ({ status: 200 }));
    await expect(
      updateEndpoint(
        database.pool,
        endpoint.id,
        { headerArguments: ['webhook-signature=v1,x'] },
        LOCAL_RECEIVERS,
      ),
    ).rejects.toThrow(EndpointSettingError);
    // Written around the checks, straight into the table: still not sent over the real ones.
    await database.pool.query(
      `UPDATE sync.webhook_endpoints SET headers = $2::jsonb,
              enabled = (id = $1)`,
      [
        endpoint.id,
        JSON.stringify({ 'Webhook-Signature': 'v1,forged', 'content-type': 'text/plain', 'x-ok': '1' }),
      ],
    );
    const { event } = await deliverOne();
    const [got] = receiver.received('/forged');
    expect(got?.headers['webhook-id']).toBe(event.id);
    expect(got?.headers['webhook-signature']).not.toContain('forged');
    expect(got?.headers['content-type']).toBe('application/json');
    expect(got?.headers['x-ok']).toBe('1');
    expect(got?.verified).toBe(true);
  });

  it('re-checks a new URL against the target policy and leaves the endpoint as it was when refused', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/policy') }, LOCAL_RECEIVERS);
    const strict = { policy: { allowPrivateTargets: false } };
    await expect(
      updateEndpoint(database.pool, endpoint.id, { url: 'https://127.0.0.1/hook' }, strict),
    ).rejects.toThrow(/loopback/);
    await expect(
      updateEndpoint(database.pool, endpoint.id, { url: 'https://10.0.0.7/hook', description: 'x' }, strict),
    ).rejects.toThrow(/private/);
    expect(await getEndpoint(database.pool, endpoint.id)).toMatchObject({
      url: receiver.url('/policy'),
      description: null,
    });
    expect(await updateEndpoint(database.pool, 'ep_nope', { description: 'x' }, strict)).toBeUndefined();
  });
});

describe('webhooks get and list', () => {
  it('show every setting with the secret and credential-like header values masked, also as JSON', async () => {
    const endpoint = await addEndpoint(
      database.pool,
      { url: receiver.url('/shown'), description: 'BI feed' },
      LOCAL_RECEIVERS,
    );
    await updateEndpoint(
      database.pool,
      endpoint.id,
      { headerArguments: ['X-Api-Key=key-1234567890abcd', 'X-Tenant=acme'], rateLimitPerSecond: 5 },
      LOCAL_RECEIVERS,
    );
    const text = printer();
    await webhooksGet(database.pool, endpoint.id, text.print);
    expect(text.lines).toEqual([
      `id: ${endpoint.id}`,
      `url: ${receiver.url('/shown')}`,
      'description: BI feed',
      'types: (all)',
      'scopes: (all)',
      'state: enabled',
      `secret: whsec_****${endpoint.secret.slice(-4)}`,
      'rate limit: 5/s',
      'headers: x-api-key: ****abcd; x-tenant: acme',
      'metadata: {}',
      'failing since: -',
      expect.stringMatching(/^created: \d{4}-/),
    ]);
    const json = printer();
    await webhooksGet(database.pool, endpoint.id, json.print, { json: true });
    expect(json.lines).toHaveLength(1);
    expect(JSON.parse(json.lines[0] ?? '')).toMatchObject({
      id: endpoint.id,
      secret: `whsec_****${endpoint.secret.slice(-4)}`,
      headers: { 'x-api-key': '****abcd', 'x-tenant': 'acme' },
      rateLimitPerSecond: 5,
      description: 'BI feed',
    });
    const listed = printer();
    await webhooksList(database.pool, listed.print, new Date(), { json: true });
    const all = JSON.parse(listed.lines[0] ?? '[]') as Array<{ id: string }>;
    expect(all.map((e) => e.id)).toContain(endpoint.id);
    for (const output of [...text.lines, ...json.lines, ...listed.lines]) {
      expect(output).not.toContain(endpoint.secret.slice(6));
      expect(output).not.toContain('key-1234567890');
    }
    await expect(webhooksGet(database.pool, 'ep_nope', text.print)).rejects.toThrow(
      'No endpoint ep_nope: see `webhooks list`.',
    );
  });
});
