import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { webhooksAdd } from '../../src/cli/actions/webhooks.ts';
import { writeEvents } from '../../src/events/outbox.ts';
import { addEndpoint, listEndpoints } from '../../src/webhooks/endpoints/endpoints.ts';
import type { Resolve } from '../../src/webhooks/endpoints/safeLookup.ts';
import { CLI_ENTRY } from '../helpers/cli.ts';
import { startDeliveryEngine, stopDeliveryEngines, waitForAttempt } from '../helpers/deliveryEngine.ts';
import { createTestDatabase, LOCAL_RECEIVERS, startReceiver, testEvent } from './harness.ts';

const strict = { allowPrivateTargets: false };

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

/** A resolver answering from a fixed table (a name it does not know does not resolve). */
function resolver(table: Record<string, string[]>): Resolve {
  return async (hostname) => {
    const addresses = table[hostname];
    if (!addresses)
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

/** A worker with the default target policy (WEBHOOK_ALLOW_PRIVATE_TARGETS unset). */
const STRICT_WORKER = { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' };

/** Stores an endpoint the way an operator with WEBHOOK_ALLOW_PRIVATE_TARGETS=true could have. */
async function storedEndpoint(url: string) {
  await database.pool.query('UPDATE sync.webhook_endpoints SET enabled = false');
  return addEndpoint(database.pool, { url }, LOCAL_RECEIVERS);
}

async function commitEvent(): Promise<string> {
  const event = testEvent();
  await writeEvents(database.pool, [event], { stream: 'shipments', scope: 'ACC1', suppressed: false });
  return event.id;
}

describe('webhooks add refuses private targets', () => {
  it.each([
    'http://127.0.0.1',
    'http://169.254.169.254',
    'http://localhost:5433',
    'http://[::1]:6390',
    'http://0x7f000001',
    'http://10.0.0.1',
    'https://[::ffff:127.0.0.1]/hook',
    'https://2130706433/hook',
  ])('%s', async (url) => {
    const before = (await listEndpoints(database.pool)).length;
    await expect(webhooksAdd(database.pool, url, [], () => {}, { policy: strict })).rejects.toThrow(
      /refused target: .* WEBHOOK_ALLOW_PRIVATE_TARGETS=true/,
    );
    expect(await listEndpoints(database.pool)).toHaveLength(before);
  });

  it('refuses a name that resolves to a private address, and one that mixes public and private', async () => {
    const resolve = resolver({
      'internal.example': ['10.1.2.3'],
      'mixed.example': ['93.184.215.14', '127.0.0.1'],
    });
    await expect(
      webhooksAdd(database.pool, 'https://internal.example/hook', [], () => {}, { policy: strict, resolve }),
    ).rejects.toThrow(/internal\.example resolves to 10\.1\.2\.3 is a private address/);
    await expect(
      webhooksAdd(database.pool, 'https://mixed.example/hook', [], () => {}, { policy: strict, resolve }),
    ).rejects.toThrow(/mixed\.example resolves to 127\.0\.0\.1 is a loopback address/);
  });

  it('exits 2 with one line from the CLI, and accepts the target with WEBHOOK_ALLOW_PRIVATE_TARGETS=true', () => {
    const run = (env: Record<string, string>) =>
      spawnSync(process.execPath, [CLI_ENTRY, 'webhooks', 'add', 'http://0x7f000001/hook'], {
        env: { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent', ...env },
        // Not the repository: the CLI reads a developer's .env from its working directory.
        cwd: tmpdir(),
        encoding: 'utf8',
      });
    const refused = run({});
    expect(refused.status).toBe(2);
    const lines = refused.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/127\.0\.0\.1 is a loopback address/);
    expect(refused.stdout).toBe('');
    const allowed = run({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true' });
    expect(allowed.status).toBe(0);
    expect(allowed.stdout).toContain('url: http://127.0.0.1/hook');
  });
});

describe('each delivery checks its target again, after resolving it', () => {
  it('refuses a stored private target at delivery, records why, and stores nothing it could answer', async () => {
    await startDeliveryEngine(database.url, { env: STRICT_WORKER });
    for (const url of [
      receiver.url('/private'),
      receiver.url('/private').replace('127.0.0.1', 'localhost'),
      receiver.url('/private').replace('127.0.0.1', '[::ffff:127.0.0.1]'),
    ]) {
      const endpoint = await storedEndpoint(url);
      receiver.on('/private', endpoint.secret, () => ({ status: 200, body: 'internal secrets' }));
      const id = await commitEvent();
      // A failed attempt, to be retried (the target may be fixed meanwhile).
      const [attempt] = await waitForAttempt(database.pool, id, 'failed');
      expect(attempt).toMatchObject({ status: 'failed', responseCode: null, responseBody: null });
      expect(attempt?.error).toMatch(/^refused target: .*(loopback|this machine)/);
    }
    expect(receiver.received('/private')).toHaveLength(0);
  });

  it('refuses a name that resolved publicly when added but privately when delivered (DNS rebinding)', async () => {
    const added = await addEndpoint(
      database.pool,
      { url: 'https://rebind.example/hook' },
      { policy: strict, resolve: resolver({ 'rebind.example': ['93.184.215.14'] }) },
    );
    await database.pool.query('UPDATE sync.webhook_endpoints SET enabled = (id = $1)', [added.id]);
    await startDeliveryEngine(database.url, {
      env: STRICT_WORKER,
      resolve: resolver({ 'rebind.example': ['127.0.0.1'] }),
    });
    const id = await commitEvent();
    const [attempt] = await waitForAttempt(database.pool, id, 'failed');
    expect(attempt?.error).toBe(
      'refused target: rebind.example resolves to 127.0.0.1 is a loopback address; set WEBHOOK_ALLOW_PRIVATE_TARGETS=true to allow private targets',
    );
    expect(attempt?.responseBody).toBeNull();
  });

  it('connects to the address its own lookup checked, not to what the system resolver would say', async () => {
    // receiver.test resolves nowhere but in the injected resolver: a request that arrives went to
    // the address the delivery's lookup answered.
    const port = new URL(receiver.url('/')).port;
    const endpoint = await storedEndpoint(`http://receiver.test:${port}/resolved`);
    receiver.on('/resolved', endpoint.secret, () => ({ status: 204 }));
    await startDeliveryEngine(database.url, { resolve: resolver({ 'receiver.test': ['127.0.0.1'] }) });
    const id = await commitEvent();
    expect((await waitForAttempt(database.pool, id, 'succeeded')).map((a) => a.status)).toEqual([
      'succeeded',
    ]);
    const got = receiver.received('/resolved');
    expect(got).toHaveLength(1);
    expect(got[0]?.headers.host).toBe(`receiver.test:${port}`);
    expect(got[0]?.headers['webhook-id']).toBe(id);
  });
});
