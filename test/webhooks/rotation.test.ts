import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webhooksList, webhooksRotateSecret } from '../../src/cli/actions/webhooks.ts';
import { writeEvents } from '../../src/events/outbox.ts';
import { addEndpoint, getEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { sweepOnce } from '../../src/webhooks/recovery/sweeper.ts';
import { startDeliveryEngine, stopDeliveryEngines, waitSettled } from '../helpers/deliveryEngine.ts';
import { createTestDatabase, LOCAL_RECEIVERS, type Received, startReceiver, testEvent } from './harness.ts';

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

const HOUR = 3_600_000;

/** Whether the reference library accepts a delivery with this secret. */
function verifies(secret: string, request: Received): boolean {
  try {
    new Webhook(secret).verify(request.body, request.headers);
    return true;
  } catch {
    return false;
  }
}

describe('webhooks rotate-secret', () => {
  it('signs with the old and the new secret for 24 hours, then with the new one only, and drops the old', async () => {
    const endpoint = await addEndpoint(database.pool, { url: receiver.url('/rotate') }, LOCAL_RECEIVERS);
    receiver.on('/rotate', endpoint.secret, () => ({ status: 204 }));
    const engine = await startDeliveryEngine(database.url);
    const deliverOne = async () => {
      const event = testEvent();
      await writeEvents(database.pool, [event], { stream: null, scope: null, suppressed: false });
      const [deliveries] = await waitSettled(database.pool, [event.id]);
      expect(deliveries?.map((d) => d.status)).toEqual(['succeeded']);
      const got = receiver.received('/rotate').at(-1) as Received;
      expect(got.headers['webhook-id']).toBe(event.id);
      return got;
    };

    const rotatedAt = new Date();
    const overlapEnds = new Date(rotatedAt.getTime() + 24 * HOUR).toISOString();
    const printed: string[] = [];
    expect(await webhooksRotateSecret(database.pool, endpoint.id, (l) => printed.push(l), rotatedAt)).toBe(
      true,
    );
    const newSecret = printed.find((l) => l.startsWith('secret: '))?.slice(8) ?? '';
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(endpoint.secret);
    expect(printed.join('\n')).toContain(overlapEnds);

    const during = await deliverOne();
    const signatures = during.headers['webhook-signature']?.split(' ') ?? [];
    expect(signatures).toHaveLength(2);
    expect(signatures.every((s) => s.startsWith('v1,'))).toBe(true);
    expect(verifies(endpoint.secret, during)).toBe(true);
    expect(verifies(newSecret, during)).toBe(true);
    // Each signature on its own verifies with exactly one of the secrets.
    const alone = (signature: string) => ({
      ...during,
      headers: { ...during.headers, 'webhook-signature': signature },
    });
    expect(
      signatures.map((s) => [verifies(newSecret, alone(s)), verifies(endpoint.secret, alone(s))]),
    ).toEqual([
      [true, false],
      [false, true],
    ]);
    const listed: string[] = [];
    await webhooksList(database.pool, (l) => listed.push(l));
    expect(listed.join('\n')).toContain(`previous secret signs too until ${overlapEnds}`);

    // The 24 hours pass (the overlap's end moves to a moment ago): only the new secret signs.
    await database.pool.query(
      `UPDATE sync.webhook_endpoints SET previous_secret_expires_at = now() - interval '1 millisecond'
        WHERE id = $1`,
      [endpoint.id],
    );
    const after = await deliverOne();
    expect(after.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(verifies(newSecret, after)).toBe(true);
    expect(verifies(endpoint.secret, after)).toBe(false);

    // The sweeper drops the old secret (run here rather than waiting for the engine's minute).
    await engine.stop();
    expect(await sweepOnce(database.pool)).toMatchObject({ secretsDropped: 1 });
    expect(await getEndpoint(database.pool, endpoint.id)).toMatchObject({
      secret: newSecret,
      previousSecret: null,
      previousSecretExpiresAt: null,
    });

    // Neither secret is ever stored with the deliveries, nor listed.
    const stored = await database.pool.query(
      `SELECT (SELECT string_agg(d::text, ' ') FROM sync.webhook_deliveries d) AS attempts,
              (SELECT string_agg(s::text, ' ') FROM sync.webhook_delivery_states s) AS states`,
    );
    const rows = `${stored.rows[0].attempts} ${stored.rows[0].states}`;
    expect(rows).not.toContain('whsec_');
    const text = `${rows} ${listed.join(' ')}`;
    for (const secret of [endpoint.secret, newSecret]) expect(text).not.toContain(secret.slice(6));
  });

  it('says so (exit 1) for an unknown endpoint', async () => {
    const printed: string[] = [];
    expect(await webhooksRotateSecret(database.pool, 'ep_nope', (l) => printed.push(l))).toBe(false);
    expect(printed).toEqual(['No endpoint ep_nope: see `webhooks list`.']);
  });
});
