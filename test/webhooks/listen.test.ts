import type { ChildProcess } from 'node:child_process';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import { signDelivery } from '../../src/webhooks/delivery/post/sign.ts';
import { generateSecret } from '../../src/webhooks/endpoints/secret.ts';
import { collect, linesOf, runSourceCli, spawnSourceCli } from '../helpers/cli.ts';
import { startDeliveryEngine, stopDeliveryEngines, until } from '../helpers/deliveryEngine.ts';
import { createTestDatabase, testEvent } from './harness.ts';

/**
 * `webhooks listen` as a user runs it, a real process: it adds a temporary endpoint pointing at
 * itself and prints its secret, prints each delivery the production engine makes to it (verified),
 * answers 401 to a forged one, explains a worker that refuses loopback targets, and on Ctrl-C
 * removes the endpoint and exits 0. With --secret it adds nothing and verifies with that secret.
 */

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const children = new Set<ChildProcess>();
beforeAll(async () => {
  database = await createTestDatabase();
});
afterEach(async () => {
  for (const child of children) child.kill('SIGKILL');
  children.clear();
  await stopDeliveryEngines();
});
afterAll(() => database?.drop());

function env(): NodeJS.ProcessEnv {
  // This shell does not allow private targets: what decides delivery to 127.0.0.1 is the worker's setting.
  return {
    ...process.env,
    DATABASE_URL: database.url,
    LOG_LEVEL: 'silent',
    WEBHOOK_ALLOW_PRIVATE_TARGETS: '',
  };
}

/** A running `webhooks listen`, its output so far, and how it ended. */
function listen(args: string[]) {
  const child = spawnSourceCli(['webhooks', 'listen', '--port', '0', ...args], { env: env() });
  children.add(child);
  const output = { stdout: '', stderr: '' };
  child.stdout?.on('data', (chunk) => {
    output.stdout += String(chunk);
  });
  child.stderr?.on('data', (chunk) => {
    output.stderr += String(chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  const line = async (what: string, pattern: RegExp, stream: 'stdout' | 'stderr' = 'stdout') => {
    await until(`listen printed ${what}`, () => linesOf(output[stream]).some((l) => pattern.test(l)));
    return linesOf(output[stream]).find((l) => pattern.test(l)) as string;
  };
  return { child, output, exited, line };
}

/** Standard Webhooks headers for a request, as the worker signs them. */
function signed(secret: string, id: string, at: Date, body: string): Record<string, string> {
  return { ...signDelivery(secret, id, at, body) };
}

async function endpointCount(): Promise<number> {
  const { rows } = await database.pool.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM sync.webhook_endpoints',
  );
  return rows[0]?.n ?? 0;
}

describe('webhooks listen', () => {
  it('adds a temporary endpoint, prints verified deliveries, refuses forged ones, and cleans up on Ctrl-C', async () => {
    const run = listen(['--types', 'shipment.*']);
    const url = (await run.line('its URL', /^listening on /)).replace(/^listening on (\S+) .*$/, '$1');
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const endpointId = (await run.line('its endpoint', /^added endpoint /)).split(' ')[2] ?? '';
    const secret = (await run.line('its secret', /^secret: whsec_/)).slice('secret: '.length);
    expect(await run.line('the types', /^added endpoint /)).toContain('types shipment.*, scopes (all)');
    const { rows } = await database.pool.query(
      'SELECT url, event_types FROM sync.webhook_endpoints WHERE id = $1',
      [endpointId],
    );
    expect(rows).toEqual([{ url, event_types: ['shipment.*'] }]);

    await startDeliveryEngine(database.url);
    const shipped = testEvent({ type: 'shipment.delivered' });
    const invoiced = testEvent({ type: 'invoice.paid', subject: { kind: 'invoice', key: 'I1' } });
    await writeEvents(database.pool, [shipped, invoiced], {
      stream: 'shipments',
      scope: 'A1',
      suppressed: false,
    });
    const delivered = await run.line('the delivery', new RegExp(` ${shipped.id} `));
    expect(delivered).toMatch(new RegExp(`^\\S+Z  ${shipped.id}  shipment\\.delivered  verified  -> 200$`));
    await until('the worker recorded the 200', async () => {
      const got = await database.pool.query(
        `SELECT 1 FROM sync.webhook_deliveries WHERE endpoint_id = $1 AND event_id = $2 AND response_code = 200`,
        [endpointId, shipped.id],
      );
      return got.rows.length === 1;
    });

    // Signed with another secret, and not signed at all: 401, printed as such.
    const body = JSON.stringify({ type: 'shipment.created', id: 'evt_forged' });
    const forged = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...signed(generateSecret(), 'evt_forged', new Date(), body),
      },
      body,
    });
    expect(forged.status).toBe(401);
    expect(await run.line('the forged one', / evt_forged /)).toMatch(
      /^\S+Z {2}evt_forged {2}shipment\.created {2}NOT verified \(No matching signature found\) {2}-> 401$/,
    );
    const unsigned = await fetch(url, { method: 'POST', body: '{}' });
    expect(unsigned.status).toBe(401);
    const genuine = await fetch(url, {
      method: 'POST',
      headers: signed(secret, 'evt_genuine', new Date(), body),
      body,
    });
    expect(genuine.status).toBe(200);

    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(linesOf(run.output.stderr)).toEqual([`removed endpoint ${endpointId}`]);
    const left = await database.pool.query('SELECT 1 FROM sync.webhook_endpoints WHERE id = $1', [
      endpointId,
    ]);
    expect(left.rows).toEqual([]);
    // The invoice was not of its types: never printed.
    expect(run.output.stdout).not.toContain(invoiced.id);
  });

  it('explains a worker that refuses loopback targets', async () => {
    const run = listen([]);
    const endpointId = (await run.line('its endpoint', /^added endpoint /)).split(' ')[2] ?? '';
    await startDeliveryEngine(database.url, { env: { WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' } });
    const event = testEvent();
    await writeEvents(database.pool, [event], { stream: 'shipments', scope: 'A1', suppressed: false });
    const why = await run.line('why nothing arrives', /did not reach this receiver/, 'stderr');
    expect(why).toBe(
      `the worker's attempt 1 of ${event.id} did not reach this receiver: refused target: 127.0.0.1 is a loopback address; set WEBHOOK_ALLOW_PRIVATE_TARGETS=true to allow private targets (that is the worker’s setting, not this shell’s: restart the worker with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)`,
    );
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    const left = await database.pool.query('SELECT 1 FROM sync.webhook_endpoints WHERE id = $1', [
      endpointId,
    ]);
    expect(left.rows).toEqual([]);
  });

  it('with --secret adds no endpoint and verifies with that secret; --json prints the body', async () => {
    const before = await endpointCount();
    const secret = generateSecret();
    const run = listen(['--secret', secret, '--json']);
    // With --json, stdout has the deliveries only; what listen says goes to stderr.
    const url = (await run.line('its URL', /^listening on /, 'stderr')).replace(
      /^listening on (\S+) .*$/,
      '$1',
    );
    await run.line(
      'how to point an endpoint at it',
      /^verifying with the given secret; point an endpoint here/,
      'stderr',
    );
    expect(await endpointCount()).toBe(before);
    const event = testEvent();
    const body = JSON.stringify(event);
    const answer = await fetch(url, {
      method: 'POST',
      headers: signed(secret, event.id, new Date(), body),
      body,
    });
    expect([answer.status, await answer.json()]).toEqual([200, { received: true }]);
    const printed = JSON.parse(await run.line('the delivery', new RegExp(event.id)));
    expect(printed).toMatchObject({
      webhookId: event.id,
      type: event.type,
      verified: true,
      status: 200,
      body: event,
    });
    const tooOld = await fetch(url, {
      method: 'POST',
      headers: signed(secret, 'evt_old', new Date(Date.now() - 3_600_000), body),
      body,
    });
    expect(tooOld.status).toBe(401);
    expect(JSON.parse(await run.line('the stale one', /evt_old/))).toMatchObject({
      verified: false,
      problem: 'Message timestamp too old',
      status: 401,
    });
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(0);
    expect(linesOf(run.output.stdout).map((line) => JSON.parse(line).webhookId)).toEqual([
      event.id,
      'evt_old',
    ]);
    expect(linesOf(run.output.stderr)).toHaveLength(2);
  });

  it('refuses bad input in one line: exit 2 for usage, 1 for a port in use', async () => {
    const busy = listen([]);
    const url = (await busy.line('its URL', /^listening on /)).replace(/^listening on (\S+) .*$/, '$1');
    const port = new URL(url).port;
    const cases: Array<[string[], number, RegExp]> = [
      [['--secret', 'nope'], 2, /^error: --secret: not a signing secret/],
      [['--secret', 'whsec_!!!'], 2, /^error: --secret: not a signing secret/],
      [
        ['--port', '70000'],
        2,
        /^error: option '--port <n>' argument '70000' is invalid\. "70000" is not a port/,
      ],
      [['--types', 'shipmnt.*'], 2, /^error: Unknown event type\(s\) or pattern\(s\): shipmnt\.\*/],
      [['--port', port], 1, new RegExp(`^error: port ${port} is in use: choose another with --port\\.$`)],
    ];
    const results = await Promise.all(
      cases.map(([args]) => collect(spawnSourceCli(['webhooks', 'listen', ...args], { env: env() }))),
    );
    cases.forEach(([args, code, line], i) => {
      const result = results[i];
      expect([result?.code, linesOf(result?.stderr ?? ''), result?.stdout], args.join(' ')).toEqual([
        code,
        [expect.stringMatching(line)],
        '',
      ]);
    });
    busy.child.kill('SIGINT');
    expect(await busy.exited).toBe(0);
    const help = await runSourceCli(['webhooks', 'listen', '--help'], { env: env() });
    expect(help.stdout).toContain('--secret <whsec>');
  });
});
