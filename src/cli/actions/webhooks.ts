import { isTestMessageType } from '../../catalog/eventExamples.ts';
import { createDatabase } from '../../db/client.ts';
import type { Queryable } from '../../db/queryable.ts';
import { EVENT_TYPES, TEST_EVENT_TYPE } from '../../events/types.ts';
import type { DeliveryDb } from '../../webhooks/delivery/deliver.ts';
import { sendTestDelivery } from '../../webhooks/delivery/testDelivery.ts';
import { ScopeFilterError, UnknownEventTypeError } from '../../webhooks/endpoints/endpointFilter.ts';
import { rotateSecret } from '../../webhooks/endpoints/endpointSecrets.ts';
import { EndpointSettingError } from '../../webhooks/endpoints/endpointSettings.ts';
import {
  addEndpoint,
  disableEndpoint,
  enableEndpoint,
  getEndpoint,
  listEndpoints,
  removeEndpoint,
} from '../../webhooks/endpoints/endpoints.ts';
import { InvalidEndpointUrlError } from '../../webhooks/endpoints/endpointUrl.ts';
import type { Resolve } from '../../webhooks/endpoints/safeLookup.ts';
import type { TargetPolicy } from '../../webhooks/endpoints/targetPolicy.ts';
import { recoverEndpoint } from '../../webhooks/recovery/recover.ts';
import { ReplayError, type ReplaySelection, replayEvents } from '../../webhooks/recovery/replay.ts';
import type { CliContext } from '../context.ts';
import { EXIT_FAILURE } from '../exitCodes.ts';
import { UsageError } from '../usageError.ts';
import { type ConfiguredScopes, unconfiguredScopeNotes } from './scopeNotes.ts';
import { webhooksAttempts, webhooksGet, webhooksStats, webhooksUpdate } from './webhookEndpointCommands.ts';
import { webhooksResend } from './webhookResend.ts';
import { endpointLine, endpointView, scopesText, typesText } from './webhookViews.ts';

export { webhooksAttempts, webhooksGet, webhooksResend, webhooksStats, webhooksUpdate };

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
  options: {
    description?: string | undefined;
    accountNumbers?: string[] | undefined;
    supplierIds?: string[] | undefined;
    /** The configured scopes, to note filter ids that none of them has. */
    configured?: ConfiguredScopes;
  } = {},
): Promise<void> {
  const endpoint = await addEndpoint(
    db,
    {
      url,
      eventTypes: types,
      description: options.description,
      accountNumbers: options.accountNumbers,
      supplierIds: options.supplierIds,
    },
    target,
  );
  if (endpoint.note) print(`note: ${endpoint.note}`);
  if (options.configured)
    for (const note of unconfiguredScopeNotes(endpoint, options.configured)) print(note);
  print(`id: ${endpoint.id}`);
  print(`url: ${endpoint.url}`);
  print(`types: ${typesText(endpoint.eventTypes)}`);
  print(`scopes: ${scopesText(endpoint)}`);
  print(`secret: ${endpoint.secret}`);
  print('Store the secret now: it is not shown again. Verify deliveries with it (Standard Webhooks).');
}

/** `webhooks list [--json]`: one line per endpoint (or a JSON array), secrets masked. */
export async function webhooksList(
  db: Queryable,
  print: Print,
  now: Date = new Date(),
  options: { json?: boolean } = {},
): Promise<void> {
  const views = (await listEndpoints(db)).map((e) => endpointView(e, now));
  if (options.json) {
    print(JSON.stringify(views));
    return;
  }
  if (views.length === 0) print('No webhook endpoints. Add one with `webhooks add <url>`.');
  for (const view of views) print(endpointLine(view));
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
 * `webhooks test [--type T]`: sends an example of T (default: the webhook.test ping), marked
 * `test: true`, through the real signing, custom headers and target checks (one attempt, no retries,
 * nothing stored) and prints the outcome; false (exit 1) unless the receiver answered 2xx.
 */
export async function webhooksTest(
  db: Queryable,
  id: string,
  print: Print,
  target: { policy: TargetPolicy; resolve?: Resolve },
  type: string = TEST_EVENT_TYPE,
): Promise<boolean> {
  if (!isTestMessageType(type)) {
    throw new UsageError(
      `Unknown event type "${type}". Known types: ${TEST_EVENT_TYPE} (the default), ${EVENT_TYPES.join(', ')}.`,
    );
  }
  if (!(await getEndpoint(db, id))) {
    print(`No endpoint ${id}: see \`webhooks list\`.`);
    return false;
  }
  const { messageId, result } = await sendTestDelivery({ db, ...target }, id, type);
  const timing = ` in ${result.durationMs} ms`;
  if (result.ok) {
    print(`delivered: ${type}, HTTP ${result.statusCode}${timing} (webhook-id ${messageId})`);
    return true;
  }
  print(`failed: ${result.error ?? 'not sent'}${timing} (webhook-id ${messageId})`);
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
  const { events, jobs, queued, types } = await replayEvents(db, selection, { endpointId });
  // Nothing to send is a failure (exit 1): a typo'd id or range must not look like a replay.
  if (events === 0) {
    throw new Error(
      'eventId' in selection
        ? `No event ${selection.eventId} in sync.events: nothing to replay (see \`events tail\`).`
        : `No event occurred in [${selection.from.toISOString()}, ${selection.to.toISOString()}): nothing to replay.`,
    );
  }
  const endpoint = endpointId ? await getEndpoint(db, endpointId) : undefined;
  if (jobs === 0) {
    throw new Error(
      endpoint
        ? `${events} event(s) matched but endpoint ${endpoint.id} takes none of their types (${types.join(', ')}): nothing to replay (its types: ${endpoint.eventTypes.join(', ')}).`
        : `${events} event(s) matched but no enabled endpoint wants them: nothing to replay (see \`webhooks list\`).`,
    );
  }
  const skipped =
    endpoint && jobs < events ? `, the ${events - jobs} other(s) of types ${endpoint.id} does not take` : '';
  print(`queued ${queued} delivery(ies) of ${events} event(s)${skipped}; a running worker sends them now.`);
}

/**
 * `webhooks recover <endpoint> --since T`: re-sends, with the same webhook-ids, what failed or gave
 * up since T and never succeeded, and what the relay did not send while the endpoint was disabled.
 * Stored as a new series that a running worker sends; needs no Redis.
 */
export async function webhooksRecover(
  db: Queryable,
  endpointId: string,
  since: Date,
  print: Print,
  now: Date = new Date(),
): Promise<boolean> {
  const result = await recoverEndpoint(db, endpointId, since, now);
  const retrying =
    result.stillRetrying > 0
      ? `; ${result.stillRetrying} other failed event(s) are still being retried on their schedule and are not sent twice`
      : '';
  if (result.deliveries.length === 0) {
    print(`nothing to recover for ${endpointId} since ${since.toISOString()}${retrying}.`);
    return true;
  }
  print(
    `recovering ${result.deliveries.length} event(s) for ${endpointId} since ${since.toISOString()}: ${result.failed} failed or gave up, ${result.missedWhileDisabled} missed while disabled${retrying}; a running worker sends them with their original webhook-id.`,
  );
  return true;
}

/** Runs an action with a database from the configuration; bad input becomes a UsageError (exit 2). */
export async function withDb(
  context: CliContext,
  action: (db: DeliveryDb) => Promise<unknown>,
): Promise<void> {
  const database = createDatabase(context.config().databaseUrl, {
    max: 2,
    applicationName: 'fulfillment-sync cli',
    settings: context.config().database,
  });
  try {
    const ok = await action(database.pool);
    if (ok === false) process.exitCode = EXIT_FAILURE;
  } catch (error) {
    const usage =
      error instanceof InvalidEndpointUrlError ||
      error instanceof UnknownEventTypeError ||
      error instanceof ScopeFilterError ||
      error instanceof ReplayError ||
      error instanceof EndpointSettingError;
    throw usage ? new UsageError((error as Error).message) : error;
  } finally {
    await database.close();
  }
}
