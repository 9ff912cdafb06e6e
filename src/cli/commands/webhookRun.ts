import type { DeliveryDb } from '../../webhooks/delivery/deliver.ts';
import type * as WebhookActions from '../actions/webhooks.ts';
import type { CliContext } from '../context.ts';

/** Where a `webhooks` command prints its output. */
export type Print = (line: string) => void;

/**
 * Runs one `webhooks` subcommand with a database from the configuration. The webhook code (and the
 * database driver) load only here, when a subcommand runs: `--help` and a usage error need none of it.
 */
export async function runWebhookAction(
  context: CliContext,
  action: (actions: typeof WebhookActions, db: DeliveryDb) => Promise<unknown>,
): Promise<void> {
  const actions = await import('../actions/webhooks.ts');
  await actions.withDb(context, (db) => action(actions, db));
}
