import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeEvents } from '../../src/events/outbox.ts';
import { addEndpoint, disableEndpoint, updateEndpoint } from '../../src/webhooks/endpoints/endpoints.ts';
import { listAttempts } from '../../src/webhooks/views/deliveries.ts';
import { type CliResult, linesOf, runCliInProcess } from '../helpers/cli.ts';
import {
  deliveriesOf,
  QUICK_RETRIES,
  startDeliveryEngine,
  stopDeliveryEngines,
  until,
  waitSettled,
} from '../helpers/deliveryEngine.ts';
import { createTestDatabase, LOCAL_RECEIVERS, startReceiver, testEvent } from './harness.ts';

/**
 * `webhooks resend <attempt>`: the attempt id from `webhooks attempts` names an endpoint and an
 * event; the event goes to that endpoint once more, now, through the worker's production delivery
 * (a new pending delivery the dispatcher claims at once), with the same webhook-id and a single
 * attempt; unknown ids and bad input are one line.
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

function cli(args: string[]): Promise<CliResult> {
  return runCliInProcess(args, { ...process.env, DATABASE_URL: database.url, LOG_LEVEL: 'silent' });
}

/** An endpoint answering 500 (until told otherwise) and an event for it: its delivery gives up on the quick schedule. */
async function failedDelivery(path: string) {
  const endpoint = await addEndpoint(database.pool, { url: receiver.url(path) }, LOCAL_RECEIVERS);
  let answer = 500;
  receiver.on(path, endpoint.secret, () => ({ status: answer, body: answer === 200 ? 'thanks' : 'down' }));
  const event = testEvent();
  await writeEvents(database.pool, [event], { stream: 'shipments', scope: 'A1', suppressed: false });
  return { endpoint, event, answer: (status: number) => (answer = status) };
}

describe('webhooks resend', () => {
  it('sends one attempt of the event again, now, with the same webhook-id, through the worker', async () => {
    const { endpoint, event, answer } = await failedDelivery('/resend');
    await startDeliveryEngine(database.url, { env: QUICK_RETRIES });
    await waitSettled(database.pool, [event.id]);
    const listed = await cli(['webhooks', 'attempts', '--event', event.id, '--json']);
    const [failed] = JSON.parse(listed.stdout) as Array<{ id: number; status: string; responseCode: number }>;
    expect(failed).toMatchObject({ status: 'gave_up', responseCode: 500 });
    // The table prints the same id first.
    const table = await cli(['webhooks', 'attempts', '--event', event.id]);
    expect(linesOf(table.stdout)[1]?.split(' ')[0]).toBe(String(failed?.id));

    answer(200);
    const resent = await cli(['webhooks', 'resend', String(failed?.id), '--wait']);
    expect(resent.code, resent.stderr).toBe(0);
    const lines = linesOf(resent.stdout);
    expect(lines[0]).toMatch(
      new RegExp(
        `^queued shipment\\.delivered ${event.id} for ${endpoint.id} \\(webhook-id ${event.id}, one attempt, as resend_[0-9a-f]{32}\\); a running worker sends it now\\.$`,
      ),
    );
    expect(lines[1]).toMatch(/^succeeded: HTTP 200 in \d+ ms \(attempt \d+\): thanks$/);
    const got = receiver.received('/resend');
    // Ten failed attempts, then the resend: every one with the same webhook-id, every one verified.
    expect(got).toHaveLength(11);
    expect(got.every((r) => r.headers['webhook-id'] === event.id && r.verified)).toBe(true);
    const attempts = await listAttempts(database.pool, event.id);
    expect(attempts.at(-1)).toMatchObject({
      series: expect.stringMatching(/^resend_/),
      attempt: 1,
      status: 'succeeded',
    });
    expect(attempts.slice(0, -1).every((a) => a.series === '')).toBe(true);
  });

  it('makes a single attempt: a failing resend gives up without retries', async () => {
    const { endpoint, event } = await failedDelivery('/resend-down');
    await startDeliveryEngine(database.url, { env: QUICK_RETRIES });
    await waitSettled(database.pool, [event.id]);
    const { rows } = await database.pool.query<{ id: string }>(
      'SELECT max(id) AS id FROM sync.webhook_deliveries WHERE event_id = $1 AND endpoint_id = $2',
      [event.id, endpoint.id],
    );
    const resent = await cli(['webhooks', 'resend', String(rows[0]?.id)]);
    expect(resent.code, resent.stderr).toBe(0);
    expect(linesOf(resent.stdout)[1]).toBe(
      `see \`webhooks attempts --event ${event.id} --endpoint ${endpoint.id}\``,
    );
    const states = async () =>
      (await deliveriesOf(database.pool, event.id)).filter((d) => d.endpointId === endpoint.id);
    await until('the resend finished', async () => (await states()).every((d) => d.status !== 'pending'));
    // Earlier tests' endpoints get the event too: only this endpoint's deliveries count here.
    expect(
      (await states()).map((s) => [s.series.replace(/_[0-9a-f]+$/, ''), s.status, s.attemptsMade]),
    ).toEqual([
      ['', 'gave_up', 10],
      ['resend', 'gave_up', 1],
    ]);
  });

  it('says when the endpoint no longer subscribes, and refuses unknown attempts, bad ids and disabled endpoints', async () => {
    const { endpoint, event } = await failedDelivery('/resend-refused');
    await startDeliveryEngine(database.url, { env: QUICK_RETRIES });
    await waitSettled(database.pool, [event.id]);
    const { rows } = await database.pool.query<{ id: string }>(
      'SELECT max(id) AS id FROM sync.webhook_deliveries WHERE event_id = $1 AND endpoint_id = $2',
      [event.id, endpoint.id],
    );
    const attemptId = String(rows[0]?.id);
    await updateEndpoint(database.pool, endpoint.id, { eventTypes: ['invoice.*'] }, LOCAL_RECEIVERS);
    const noted = await cli(['webhooks', 'resend', attemptId]);
    expect(noted.code).toBe(0);
    expect(linesOf(noted.stdout)[0]).toBe(
      `note: ${endpoint.id} no longer subscribes to this shipment.delivered (its types or scopes changed); resent because you asked.`,
    );

    await disableEndpoint(database.pool, endpoint.id);
    const cases: Array<[string[], number, RegExp]> = [
      [['webhooks', 'resend', '999999999'], 1, /^error: No attempt 999999999: see `webhooks attempts`/],
      [['webhooks', 'resend', 'abc'], 2, /^error: "abc" is not an attempt id/],
      [['webhooks', 'resend', '0'], 2, /^error: "0" is not an attempt id/],
      [['webhooks', 'resend'], 2, /^error: missing required argument 'attempt'/],
      [
        ['webhooks', 'resend', attemptId],
        1,
        new RegExp(
          `^error: Endpoint ${endpoint.id} is disabled \\(by hand\\): \`webhooks enable ${endpoint.id}\` first`,
        ),
      ],
    ];
    for (const [args, code, line] of cases) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).toBe(code);
      expect(linesOf(result.stderr), args.join(' ')).toEqual([expect.stringMatching(line)]);
      expect(result.stdout).toBe('');
    }
  });
});
