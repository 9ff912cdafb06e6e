import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import { MAX_RESPONSE_BYTES } from '../../src/webhooks/delivery/post/attempt.ts';
import { addEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { type CliResult, linesOf, runCliInProcess } from '../helpers/cli.ts';
import {
  QUICK_RETRIES,
  startDeliveryEngine,
  stopDeliveryEngines,
  waitSettled,
} from '../helpers/deliveryEngine.ts';
import { createTestDatabase, LOCAL_RECEIVERS, startReceiver, testEvent } from './harness.ts';

/**
 * `webhooks attempts` shows what each receiver answered: status, duration and the first 1 KB of
 * the body (the worker stores the first MAX_RESPONSE_BYTES), as a table and as JSON, from
 * deliveries the production engine made. And any answer is stored: a body with a NUL byte (which
 * Postgres text cannot hold) must not keep the outcomes of a group commit from being recorded.
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

function cli(args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
}

describe('webhooks attempts: what the receiver answered', () => {
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
    const listed = await cli(['webhooks', 'attempts', '--endpoint', nul.id, '--json']);
    expect(JSON.parse(listed.stdout)).toMatchObject([
      { endpointId: nul.id, status: 'succeeded', responseCode: 200, responseBody: 'ok\uFFFDbinary' },
    ]);
    await stopDeliveryEngines();
  });

  it('shows the status, the duration and the first 1 KB of the body, in a table and as JSON', async () => {
    // An answer longer than what is stored, with a multi-byte character across the 1 KB mark.
    const long = `${'x'.repeat(1023)}é${'y'.repeat(3000)}`;
    const failing = await addEndpoint(database.pool, { url: receiver.url('/long') }, LOCAL_RECEIVERS);
    receiver.on('/long', failing.secret, () => ({ status: 422, body: long }));
    const multiline = await addEndpoint(database.pool, { url: receiver.url('/lines') }, LOCAL_RECEIVERS);
    receiver.on('/lines', multiline.secret, () => ({
      status: 200,
      body: '{"ok":true,\n "note":"two\tlines"}',
    }));
    const empty = await addEndpoint(database.pool, { url: receiver.url('/empty') }, LOCAL_RECEIVERS);
    receiver.on('/empty', empty.secret, () => ({ status: 204 }));
    // The 422 is retried on the quick schedule until the delivery gives up.
    await startDeliveryEngine(database.url, { env: QUICK_RETRIES });
    const event = testEvent();
    await writeEvents(database.pool, [event], { stream: 'shipments', scope: 'A1', suppressed: false });
    await waitSettled(database.pool, [event.id]);

    const json = await cli(['webhooks', 'attempts', '--endpoint', failing.id, '--limit', '1', '--json']);
    expect(json.code, json.stderr).toBe(0);
    const [attempt] = JSON.parse(json.stdout) as Array<Record<string, unknown>>;
    expect(attempt).toMatchObject({
      endpointId: failing.id,
      eventId: event.id,
      status: 'gave_up',
      responseCode: 422,
      responseBody: 'x'.repeat(1023),
      responseBodyTruncated: true,
      durationMs: expect.any(Number),
    });
    expect(Buffer.byteLength(String(attempt?.responseBody))).toBeLessThanOrEqual(1024);
    const { rows } = await database.pool.query<{ n: number }>(
      'SELECT octet_length(response_body) AS n FROM sync.webhook_deliveries WHERE id = $1',
      [attempt?.id],
    );
    expect(rows[0]?.n).toBe(MAX_RESPONSE_BYTES);

    const table = await cli(['webhooks', 'attempts', '--event', event.id]);
    expect(table.code, table.stderr).toBe(0);
    const lines = linesOf(table.stdout);
    expect(lines[0]).toMatch(/^id +attempted +endpoint +event +# +status +http +ms +detail$/);
    const rowOf = (endpointId: string) => lines.findIndex((line) => line.includes(endpointId));
    const multilineRow = rowOf(multiline.id);
    expect(lines[multilineRow]).toMatch(
      new RegExp(
        `^${attemptIdOf(lines[multilineRow])} +\\S+Z +${multiline.id} +${event.id} +1 +succeeded +200 +\\d+$`,
      ),
    );
    expect(lines[multilineRow + 1]).toBe('    body: {"ok":true,\\n "note":"two\\tlines"}');
    const longRow = rowOf(failing.id);
    expect(lines[longRow]).toMatch(/ 422 +\d+ +receiver answered HTTP 422/);
    expect(lines[longRow + 1]).toBe(`    body: ${'x'.repeat(1023)}…`);
    // No body, no body line: the next line is another attempt.
    const emptyRow = rowOf(empty.id);
    expect(lines[emptyRow]).toMatch(/ succeeded +204 +\d+$/);
    expect(lines[emptyRow + 1] ?? '').not.toMatch(/^ {4}body:/);
  });
});

function attemptIdOf(line: string | undefined): string {
  return (line ?? '').split(' ')[0] ?? '';
}
