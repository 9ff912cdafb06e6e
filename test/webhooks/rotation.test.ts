import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhooksList, webhooksRotateSecret } from '../../src/cli/actions/webhooks.ts';
import { writeEvents } from '../../src/events/outbox.ts';
import { addEndpoint, getEndpoint } from '../../src/webhooks/endpoints.ts';
import { createInProcessDelivery } from '../../src/webhooks/inProcessQueue.ts';
import { relayOnce } from '../../src/webhooks/relay.ts';
import { sweepOnce } from '../../src/webhooks/sweeper.ts';
import { createTestDatabase, LOCAL_RECEIVERS, type Received, startReceiver, testEvent } from './harness.ts';

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
    const rotatedAt = new Date('2026-05-01T12:00:00Z');
    let now = rotatedAt.getTime();
    const clock = () => new Date(now);
    const sender = createInProcessDelivery({ ...LOCAL_RECEIVERS, db: database.pool, now: clock });
    const deliverOne = async () => {
      await writeEvents(database.pool, [testEvent()], { stream: null, scope: null, suppressed: false });
      await relayOnce({ pool: database.pool, now: clock });
      expect((await sender.runDue()).map((o) => o.kind)).toEqual(['delivered']);
      return receiver.received('/rotate').at(-1) as Received;
    };

    const printed: string[] = [];
    expect(await webhooksRotateSecret(database.pool, endpoint.id, (l) => printed.push(l), rotatedAt)).toBe(
      true,
    );
    const newSecret = printed.find((l) => l.startsWith('secret: '))?.slice(8) ?? '';
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(endpoint.secret);
    expect(printed.join('\n')).toContain('2026-05-02T12:00:00.000Z');

    now = rotatedAt.getTime() + HOUR;
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
    await webhooksList(database.pool, (l) => listed.push(l), clock());
    expect(listed.join('\n')).toContain('previous secret signs too until 2026-05-02T12:00:00.000Z');

    now = rotatedAt.getTime() + 24 * HOUR + 1;
    const after = await deliverOne();
    expect(after.headers['webhook-signature']?.split(' ')).toHaveLength(1);
    expect(verifies(newSecret, after)).toBe(true);
    expect(verifies(endpoint.secret, after)).toBe(false);

    expect(await sweepOnce(database.pool, { now: clock() })).toMatchObject({ secretsDropped: 1 });
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
