import type { Queryable } from '../../db/queryable.ts';
import { type Resent, resendAttempt } from '../../webhooks/recovery/resend.ts';
import { oneLine } from './attemptTable.ts';

type Print = (line: string) => void;

/** How often `resend --wait` looks whether the worker has sent it. */
const WAIT_POLL_MS = 200;

/**
 * `webhooks resend <attempt> [--wait]`: queues the attempt's event for its endpoint once more (one
 * attempt, same webhook-id) and says so; a running worker sends it at once. With `wait`, waits
 * (up to `waitMs`) for the worker's attempt and prints its outcome: false (exit 1) unless 2xx, or
 * when no worker sent it in time (it stays queued). Exit 1 for an unknown attempt or a disabled
 * endpoint (ResendError), nothing queued.
 */
export async function webhooksResend(
  db: Queryable,
  attemptId: number,
  print: Print,
  options: { wait?: boolean | undefined; waitMs?: number } = {},
): Promise<boolean> {
  const resent = await resendAttempt(db, attemptId);
  if (!resent.stillWanted) {
    print(
      `note: ${resent.endpointId} no longer subscribes to this ${resent.type} (its types or scopes changed); resent because you asked.`,
    );
  }
  print(
    `queued ${resent.type} ${resent.eventId} for ${resent.endpointId} (webhook-id ${resent.eventId}, one attempt, as ${resent.series}); a running worker sends it now.`,
  );
  if (!options.wait) {
    print(`see \`webhooks attempts --event ${resent.eventId} --endpoint ${resent.endpointId}\``);
    return true;
  }
  const outcome = await waitForOutcome(db, resent, options.waitMs ?? 60_000);
  if (!outcome) {
    print(
      `not sent within ${Math.round((options.waitMs ?? 60_000) / 1000)} s: is a worker running? The delivery stays queued.`,
    );
    return false;
  }
  if ('skipped' in outcome) {
    print(`not sent: ${outcome.skipped}`);
    return false;
  }
  const answer = outcome.response_code === null ? 'no answer' : `HTTP ${outcome.response_code}`;
  const body = outcome.body ? `: ${oneLine(outcome.body)}` : '';
  print(`${outcome.status}: ${answer} in ${outcome.duration_ms ?? '-'} ms (attempt ${outcome.id})${body}`);
  if (outcome.status !== 'succeeded' && outcome.error) print(`error: ${outcome.error}`);
  return outcome.status === 'succeeded';
}

type Outcome = {
  id: number;
  status: string;
  response_code: number | null;
  duration_ms: number | null;
  error: string | null;
  body: string | null;
};

/** The worker's attempt of the resent delivery (or why it sent none); undefined when nothing came in time. */
async function waitForOutcome(
  db: Queryable,
  resent: Resent,
  waitMs: number,
): Promise<Outcome | { skipped: string } | undefined> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const { rows } = await db.query<Outcome>(
      `SELECT id::int AS id, status, response_code, duration_ms, error, left(response_body, 200) AS body
         FROM sync.webhook_deliveries WHERE endpoint_id = $1 AND event_id = $2 AND series = $3
        ORDER BY id DESC LIMIT 1`,
      [resent.endpointId, resent.eventId, resent.series],
    );
    if (rows[0]) return rows[0];
    const skipped = await db.query<{ last_error: string }>(
      `SELECT last_error FROM sync.webhook_delivery_states
        WHERE endpoint_id = $1 AND event_id = $2 AND series = $3 AND status = 'skipped'`,
      [resent.endpointId, resent.eventId, resent.series],
    );
    const reason = skipped.rows[0]?.last_error;
    // The worker ended it without an attempt (the endpoint was disabled or removed meanwhile).
    if (reason) return { skipped: reason };
    if (Date.now() >= deadline) return undefined;
    await new Promise((resolve) => setTimeout(resolve, WAIT_POLL_MS));
  }
}
