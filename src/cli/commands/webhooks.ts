import { type Command, InvalidArgumentError } from 'commander';
import { createDatabase } from '../../db/client.ts';
import type { Queryable } from '../../db/queryable.ts';
import type { DeliveryDb } from '../../webhooks/deliver.ts';
import {
  addEndpoint,
  disableEndpoint,
  enableEndpoint,
  getEndpoint,
  listEndpoints,
  removeEndpoint,
  rotateSecret,
  UnknownEventTypeError,
} from '../../webhooks/endpoints.ts';
import { InvalidEndpointUrlError } from '../../webhooks/endpointUrl.ts';
import { sendTestPing } from '../../webhooks/ping.ts';
import { ReplayError, type ReplaySelection, replayEvents } from '../../webhooks/replay.ts';
import type { Resolve } from '../../webhooks/safeLookup.ts';
import { maskSecret } from '../../webhooks/secret.ts';
import type { TargetPolicy } from '../../webhooks/targetPolicy.ts';
import type { CliContext } from '../context.ts';
import { EXIT_FAILURE } from '../exitCodes.ts';
import { UsageError } from '../usageError.ts';

type Print = (line: string) => void;

/**
 * `webhooks add`: checks the target (refused: private, loopback, link-local and metadata addresses,
 * and plain http, unless WEBHOOK_ALLOW_PRIVATE_TARGETS), stores the endpoint and prints its id and
 * secret (the only time the secret is shown).
 */
export async function webhooksAdd(
  db: Queryable,
  url: string,
  types: string[],
  print: Print,
  target: { policy: TargetPolicy; resolve?: Resolve },
): Promise<void> {
  const endpoint = await addEndpoint(db, { url, eventTypes: types }, target);
  if (endpoint.note) print(`note: ${endpoint.note}`);
  print(`id: ${endpoint.id}`);
  print(`url: ${endpoint.url}`);
  print(`types: ${endpoint.eventTypes.length > 0 ? endpoint.eventTypes.join(',') : '(all)'}`);
  print(`secret: ${endpoint.secret}`);
  print('Store the secret now: it is not shown again. Verify deliveries with it (Standard Webhooks).');
}

/** `webhooks list`: one line per endpoint, secrets masked. */
export async function webhooksList(db: Queryable, print: Print, now: Date = new Date()): Promise<void> {
  const endpoints = await listEndpoints(db);
  if (endpoints.length === 0) print('No webhook endpoints. Add one with `webhooks add <url>`.');
  for (const e of endpoints) {
    const state = e.enabled ? 'enabled' : `disabled (${e.disabledReason ?? 'by hand'})`;
    const rotating =
      e.previousSecretExpiresAt && e.previousSecretExpiresAt > now
        ? `  (previous secret signs too until ${e.previousSecretExpiresAt.toISOString()})`
        : '';
    const types = e.eventTypes.length > 0 ? e.eventTypes.join(',') : '(all)';
    print(`${e.id}  ${e.url}  ${types}  ${maskSecret(e.secret)}  ${state}${rotating}`);
  }
}

/**
 * `webhooks rotate-secret`: a new secret, printed once; the old one keeps signing beside it (two
 * signatures per delivery) for 24 hours, then is dropped. False (exit 1) when no such endpoint.
 */
export async function webhooksRotateSecret(
  db: Queryable,
  id: string,
  print: Print,
  now: Date = new Date(),
): Promise<boolean> {
  const rotated = await rotateSecret(db, id, now);
  if (!rotated) {
    print(`No endpoint ${id}: see \`webhooks list\`.`);
    return false;
  }
  print(`secret: ${rotated.secret}`);
  print(
    `Until ${rotated.previousExpiresAt.toISOString()} deliveries carry two signatures, one with the old secret and one with this one; then only this one signs.`,
  );
  print('Store the secret now: it is not shown again.');
  return true;
}

/** `webhooks enable`: sends to the endpoint again (and forgets its failures); false (exit 1) when no such endpoint. */
export async function webhooksEnable(db: Queryable, id: string, print: Print): Promise<boolean> {
  const done = await enableEndpoint(db, id);
  print(done ? `enabled ${id}: new events are sent to it` : `No endpoint ${id}: see \`webhooks list\`.`);
  return done;
}

/**
 * `webhooks disable`: sends nothing more to the endpoint, its pending retries included, until
 * `webhooks enable`; false (exit 1) when no such endpoint.
 */
export async function webhooksDisable(db: Queryable, id: string, print: Print): Promise<boolean> {
  const done = await disableEndpoint(db, id);
  print(
    done
      ? `disabled ${id}: nothing is sent to it until \`webhooks enable ${id}\` (then \`webhooks replay\` re-sends a range)`
      : `No endpoint ${id}: see \`webhooks list\`.`,
  );
  return done;
}

/**
 * `webhooks test`: sends a `webhook.test` ping through the real signing, target checks and delivery
 * (one attempt, no retries) and prints the outcome; false (exit 1) unless the receiver answered 2xx.
 */
export async function webhooksTest(
  db: DeliveryDb,
  id: string,
  print: Print,
  target: { policy: TargetPolicy; resolve?: Resolve },
): Promise<boolean> {
  if (!(await getEndpoint(db, id))) {
    print(`No endpoint ${id}: see \`webhooks list\`.`);
    return false;
  }
  const { eventId, outcome, attempt } = await sendTestPing({ db, ...target }, id);
  const timing =
    attempt?.durationMs !== null && attempt?.durationMs !== undefined ? ` in ${attempt.durationMs} ms` : '';
  if (outcome.kind === 'delivered') {
    print(`delivered: HTTP ${outcome.statusCode}${timing} (webhook-id ${eventId})`);
    return true;
  }
  const why = attempt?.error ?? (outcome.kind === 'skipped' ? outcome.reason : 'not sent');
  print(`failed: ${why}${timing} (webhook-id ${eventId})`);
  return false;
}

/** `webhooks remove`: false (exit 1) when no such endpoint. */
export async function webhooksRemove(db: Queryable, id: string, print: Print): Promise<boolean> {
  const removed = await removeEndpoint(db, id);
  print(removed ? `removed ${id}` : `No endpoint ${id}: see \`webhooks list\`.`);
  return removed;
}

/**
 * `webhooks replay`: queues new deliveries (same webhook-id) in Postgres and announces them, so a
 * running worker claims and sends them at once; says how many it queued. Needs no Redis.
 */
export async function webhooksReplay(
  db: Queryable,
  selection: ReplaySelection,
  endpointId: string | undefined,
  print: Print,
): Promise<void> {
  const { events, jobs, queued } = await replayEvents(db, selection, { endpointId });
  // Nothing to send is a failure (exit 1): a typo'd id or range must not look like a replay.
  if (events === 0) {
    throw new Error(
      'eventId' in selection
        ? `No event ${selection.eventId} in sync.events: nothing to replay (see \`events tail\`).`
        : `No event occurred in [${selection.from.toISOString()}, ${selection.to.toISOString()}): nothing to replay.`,
    );
  }
  if (jobs === 0) {
    throw new Error(
      `${events} event(s) matched but no enabled endpoint wants them: nothing to replay (see \`webhooks list\`).`,
    );
  }
  print(`queued ${queued} delivery(ies) of ${events} event(s); a running worker sends them now.`);
}

function parseTypes(value: string): string[] {
  return value
    .split(',')
    .map((t) => t.trim())
    .filter(Boolean);
}

function parseDate(value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new InvalidArgumentError(`"${value}" is not a date (use ISO 8601).`);
  return date;
}

/** Runs an action with a database from the configuration; bad input becomes a UsageError (exit 2). */
async function withDb(context: CliContext, action: (db: DeliveryDb) => Promise<unknown>): Promise<void> {
  const database = createDatabase(context.config().databaseUrl, {
    max: 2,
    applicationName: 'fulfillment-sync cli',
  });
  try {
    const ok = await action(database.pool);
    if (ok === false) process.exitCode = EXIT_FAILURE;
  } catch (error) {
    const usage =
      error instanceof InvalidEndpointUrlError ||
      error instanceof UnknownEventTypeError ||
      error instanceof ReplayError;
    throw usage ? new UsageError((error as Error).message) : error;
  } finally {
    await database.close();
  }
}

/** Registers `webhooks add|list|remove|enable|disable|test|rotate-secret|replay`. */
export function registerWebhooksCommand(program: Command, context: CliContext): void {
  const webhooks = program
    .command('webhooks')
    .description('manage outgoing webhook endpoints (Standard Webhooks)');
  const print: Print = (line) => context.print(line);
  webhooks
    .command('add <url>')
    .description('add an endpoint; prints its id and signing secret once')
    .option('--types <types>', 'comma list of event types to send (default: all)', parseTypes, [])
    .action((url: string, opts: { types: string[] }) =>
      withDb(context, (db) => webhooksAdd(db, url, opts.types, print, { policy: context.config().webhooks })),
    );
  webhooks
    .command('list')
    .description('list endpoints (secrets masked)')
    .action(() => withDb(context, (db) => webhooksList(db, print)));
  webhooks
    .command('remove <id>')
    .description('remove an endpoint and its delivery records')
    .action((id: string) => withDb(context, (db) => webhooksRemove(db, id, print)));
  webhooks
    .command('enable <id>')
    .description('send events to an endpoint again (also after it was disabled for failing)')
    .action((id: string) => withDb(context, (db) => webhooksEnable(db, id, print)));
  webhooks
    .command('disable <id>')
    .description('stop sending to an endpoint, pending retries included')
    .action((id: string) => withDb(context, (db) => webhooksDisable(db, id, print)));
  webhooks
    .command('test <id>')
    .description('send a webhook.test ping now, signed and checked like any delivery; prints the outcome')
    .action((id: string) =>
      withDb(context, (db) => webhooksTest(db, id, print, { policy: context.config().webhooks })),
    );
  webhooks
    .command('rotate-secret <id>')
    .description('give an endpoint a new secret (printed once); the old one also signs for 24 hours')
    .action((id: string) => withDb(context, (db) => webhooksRotateSecret(db, id, print)));
  webhooks
    .command('replay')
    .description('re-send events by id or occurred-at range, with the same webhook-id')
    .option('--event <id>', 'one event id')
    .option('--from <date>', 'start of the range (inclusive, ISO 8601)', parseDate)
    .option('--to <date>', 'end of the range (exclusive, ISO 8601)', parseDate)
    .option('--endpoint <id>', 'only this endpoint (default: every enabled endpoint that wants the type)')
    .action((opts: { event?: string; from?: Date; to?: Date; endpoint?: string }) => {
      const selection = replaySelection(opts);
      if (!selection) throw new UsageError('replay needs --event ID, or both --from and --to.');
      return withDb(context, (db) => webhooksReplay(db, selection, opts.endpoint, print));
    });
}

function replaySelection(opts: { event?: string; from?: Date; to?: Date }): ReplaySelection | undefined {
  if (opts.event && !opts.from && !opts.to) return { eventId: opts.event };
  if (!opts.event && opts.from && opts.to) {
    // [from, to) with from >= to can hold nothing: a swapped pair of dates, told as such.
    if (opts.from.getTime() >= opts.to.getTime()) {
      throw new UsageError(
        `--from must be before --to (the range is [from, to)), got ${opts.from.toISOString()} and ${opts.to.toISOString()}`,
      );
    }
    return { from: opts.from, to: opts.to };
  }
  return undefined;
}
