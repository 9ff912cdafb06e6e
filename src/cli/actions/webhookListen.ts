import type { Webhook } from 'standardwebhooks';
import { createDatabase } from '../../db/client.ts';
import type { Queryable } from '../../db/queryable.ts';
import { addEndpoint, type Endpoint, removeEndpoint } from '../../webhooks/endpoints/endpoints.ts';
import {
  ListenSecretError,
  type LocalReceiver,
  type ReceivedDelivery,
  startLocalReceiver,
  verifierFor,
} from '../../webhooks/listen/localReceiver.ts';
import type { CliContext } from '../context.ts';
import { UsageError } from '../usageError.ts';
import { unconfiguredScopeNotes } from './scopeNotes.ts';
import { scopesText, typesText } from './webhookViews.ts';

/** What `webhooks listen` was given. */
export interface ListenOptions {
  port: number;
  /** Verify with this secret and add no endpoint (the user points one here). */
  secret?: string | undefined;
  types: string[];
  accounts?: string[] | undefined;
  suppliers?: string[] | undefined;
  json?: boolean | undefined;
}

/** The receiver listens on this machine only. */
const HOST = '127.0.0.1';

/** How often the worker's attempts at the temporary endpoint are read for failures to explain. */
const WATCH_MS = 1000;

/**
 * `webhooks listen`: a local receiver that verifies each delivery's signature and prints it (a
 * line, or a JSON line with the body), answering 200 when verified and 401 otherwise. Without
 * `--secret` it adds a temporary endpoint pointing at itself (printing its id and secret), tells
 * why the worker's attempts fail when they do not reach it (a worker without
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=true refuses 127.0.0.1), and removes it on Ctrl-C (or SIGTERM),
 * which ends the command with exit 0.
 */
export async function webhooksListen(context: CliContext, options: ListenOptions): Promise<void> {
  const stop = stopSignal();
  let verifier: Webhook | undefined;
  try {
    verifier = options.secret === undefined ? undefined : verifierFor(options.secret);
  } catch (error) {
    stop.dispose();
    throw error instanceof ListenSecretError ? new UsageError(error.message) : error;
  }
  const receiver = await startReceiver(options, context, () => verifier).catch((error: unknown) => {
    stop.dispose();
    throw error;
  });
  // With --json, stdout carries the deliveries only (for jq and the like); what it says goes to stderr.
  const say = options.json ? context.printError : context.print;
  try {
    say(`listening on ${receiver.url} (Ctrl-C to stop)`);
    if (verifier) {
      say(
        `verifying with the given secret; point an endpoint here: \`webhooks add ${receiver.url}\` or \`webhooks update <id> --url ${receiver.url}\``,
      );
      await stop.stopped;
      return;
    }
    await withTemporaryEndpoint(context, say, receiver, options, stop.stopped, (endpoint) => {
      verifier = verifierFor(endpoint.secret);
    });
  } finally {
    stop.dispose();
    await receiver.close();
  }
}

async function startReceiver(
  options: ListenOptions,
  context: CliContext,
  verifier: () => Webhook | undefined,
): Promise<LocalReceiver> {
  try {
    return await startLocalReceiver({
      host: HOST,
      port: options.port,
      verifier,
      onDelivery: (delivery) => context.print(options.json ? deliveryJson(delivery) : deliveryLine(delivery)),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new Error(`port ${options.port} is in use: choose another with --port.`);
    throw error;
  }
}

/**
 * Adds the endpoint pointing at the receiver, says how to use it, watches the worker's attempts at
 * it until `stopped`, then removes it. The endpoint is added whatever this shell's
 * WEBHOOK_ALLOW_PRIVATE_TARGETS says: its URL is this command's own loopback address; whether a
 * delivery reaches it is the worker's setting, which the watch explains when it refuses.
 */
async function withTemporaryEndpoint(
  context: CliContext,
  say: (line: string) => void,
  receiver: LocalReceiver,
  options: ListenOptions,
  stopped: Promise<void>,
  onAdded: (endpoint: Endpoint) => void,
): Promise<void> {
  const database = createDatabase(context.config().databaseUrl, {
    max: 2,
    applicationName: 'fulfillment-sync webhooks listen',
  });
  try {
    const endpoint = await addEndpoint(
      database.pool,
      {
        url: receiver.url,
        eventTypes: options.types,
        accountNumbers: options.accounts,
        supplierIds: options.suppliers,
        description: `temporary: webhooks listen (pid ${process.pid}); removed when it stops`,
        metadata: { temporary: 'webhooks listen', pid: process.pid },
      },
      { policy: { allowPrivateTargets: true } },
    );
    onAdded(endpoint);
    for (const note of unconfiguredScopeNotes(endpoint, context.config())) say(note);
    say(
      `added endpoint ${endpoint.id} for it until this stops: types ${typesText(endpoint.eventTypes)}, scopes ${scopesText(endpoint)}`,
    );
    say(`secret: ${endpoint.secret}`);
    say(
      `the worker sends here only when it runs with WEBHOOK_ALLOW_PRIVATE_TARGETS=true; to send a stored event now: \`webhooks replay --endpoint ${endpoint.id} --event <id>\``,
    );
    const watch = watchRefusals(database.pool, endpoint.id, (line) => context.printError(line));
    try {
      await stopped;
    } finally {
      watch.stop();
      await removeEndpoint(database.pool, endpoint.id);
      context.printError(`removed endpoint ${endpoint.id}`);
    }
  } finally {
    await database.close();
  }
}

/**
 * Reads the worker's failed attempts at the endpoint that never reached the receiver (no HTTP
 * answer) and says why, once each; a refused target names the worker's setting that lifts it.
 */
function watchRefusals(db: Queryable, endpointId: string, say: (line: string) => void): { stop(): void } {
  let lastId = 0;
  let reading = false;
  let readFailed = false;
  const read = async () => {
    if (reading) return;
    reading = true;
    try {
      const { rows } = await db.query<{
        id: string;
        event_id: string;
        attempt: number;
        error: string | null;
      }>(
        `SELECT id, event_id, attempt, error FROM sync.webhook_deliveries
          WHERE endpoint_id = $1 AND id > $2 AND response_code IS NULL AND status <> 'succeeded'
          ORDER BY id`,
        [endpointId, lastId],
      );
      for (const row of rows) {
        lastId = Math.max(lastId, Number(row.id));
        const refused = row.error?.startsWith('refused target') ?? false;
        say(
          `the worker's attempt ${row.attempt} of ${row.event_id} did not reach this receiver: ${row.error ?? 'failed'}${refused ? ' (that is the worker’s setting, not this shell’s: restart the worker with WEBHOOK_ALLOW_PRIVATE_TARGETS=true)' : ''}`,
        );
      }
      readFailed = false;
    } catch (error) {
      if (!readFailed) say(`cannot read the worker's attempts: ${(error as Error).message}`);
      readFailed = true;
    } finally {
      reading = false;
    }
  };
  const timer = setInterval(() => void read(), WATCH_MS);
  return { stop: () => clearInterval(timer) };
}

/** Resolves on the first SIGINT or SIGTERM; `dispose` removes the handlers. */
function stopSignal(): { stopped: Promise<void>; dispose(): void } {
  let handler: () => void = () => undefined;
  const stopped = new Promise<void>((resolve) => {
    handler = () => resolve();
  });
  process.on('SIGINT', handler);
  process.on('SIGTERM', handler);
  return {
    stopped,
    dispose: () => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}

/** One delivery as a line: when, webhook-id, type, verdict, answer. */
export function deliveryLine(delivery: ReceivedDelivery): string {
  const verdict = delivery.verified ? 'verified' : `NOT verified (${delivery.problem ?? 'unknown'})`;
  return `${delivery.receivedAt.toISOString()}  ${delivery.webhookId ?? '-'}  ${delivery.type ?? '-'}  ${verdict}  -> ${delivery.status}`;
}

/** One delivery as a JSON line, with its body (parsed when it is JSON). */
export function deliveryJson(delivery: ReceivedDelivery): string {
  let body: unknown = delivery.body;
  try {
    body = JSON.parse(delivery.body);
  } catch {
    // Not JSON: the text as it came.
  }
  return JSON.stringify({
    receivedAt: delivery.receivedAt.toISOString(),
    webhookId: delivery.webhookId,
    type: delivery.type,
    verified: delivery.verified,
    problem: delivery.problem,
    status: delivery.status,
    body,
  });
}
