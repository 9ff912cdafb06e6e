import { type Command, InvalidArgumentError } from 'commander';
import { TEST_EVENT_TYPE } from '../../events/types.ts';
import type { DeliveryDb } from '../../webhooks/deliver.ts';
import type { AttemptStatus } from '../../webhooks/deliveries.ts';
import type { ReplaySelection } from '../../webhooks/replay.ts';
import type * as WebhookActions from '../actions/webhooks.ts';
import type { CliContext } from '../context.ts';
import { UsageError } from '../usageError.ts';
import { collectRepeated, parseAttemptStatus, parseLimit, parseSince, parseTypes } from './webhookInputs.ts';

type Print = (line: string) => void;

/**
 * Runs one subcommand with a database from the configuration. The webhook code (and the database
 * driver) load only here, when a subcommand runs: `--help` and a usage error need none of it.
 */
async function run(
  context: CliContext,
  action: (actions: typeof WebhookActions, db: DeliveryDb) => Promise<unknown>,
): Promise<void> {
  const actions = await import('../actions/webhooks.ts');
  await actions.withDb(context, (db) => action(actions, db));
}

function parseDate(value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime()))
    throw new InvalidArgumentError(`"${value}" is not a date (use ISO 8601).`);
  return date;
}

/** Registers `webhooks add|list|get|update|remove|enable|disable|test|rotate-secret|replay|recover|attempts|stats`. */
export function registerWebhooksCommand(program: Command, context: CliContext): void {
  const webhooks = program
    .command('webhooks')
    .description('manage outgoing webhook endpoints (Standard Webhooks)');
  const print: Print = (line) => context.print(line);
  const target = () => ({ policy: context.config().webhooks });
  webhooks
    .command('add <url>')
    .description('add an endpoint; prints its id and signing secret once')
    .option('--types <types>', 'comma list of event types to send (default: all)', parseTypes, [])
    .option('--description <text>', 'free text to tell endpoints apart')
    .action((url: string, opts: { types: string[]; description?: string }) =>
      run(context, (a, db) => a.webhooksAdd(db, url, opts.types, print, target(), opts.description)),
    );
  webhooks
    .command('list')
    .description('list endpoints (secrets masked)')
    .option('--json', 'a JSON array, for scripts')
    .action((opts: { json?: boolean }) =>
      run(context, (a, db) => a.webhooksList(db, print, new Date(), opts)),
    );
  webhooks
    .command('get <id>')
    .description('show one endpoint: url, types, state, headers, rate limit, metadata (secret masked)')
    .option('--json', 'a JSON object, for scripts')
    .action((id: string, opts: { json?: boolean }) =>
      run(context, (a, db) => a.webhooksGet(db, id, print, opts)),
    );
  webhooks
    .command('update <id>')
    .description('change an endpoint in place: its id, secret and delivery history stay')
    .option('--url <url>', 'a new URL (checked like `add` checks it)')
    .option('--types <types>', 'comma list of event types to send; "all" for every type', parseTypes)
    .option('--description <text>', 'free text; "" clears it')
    .option(
      '--header <name=value>',
      'a header sent with every delivery (repeatable); NAME= removes it',
      collectRepeated,
    )
    .option('--rate-limit <n/s>', 'most deliveries per second to this endpoint, e.g. 50/s; "off" removes it')
    .option('--metadata <json>', 'a JSON object of your own (replaces the stored one); never sent')
    .action(
      (
        id: string,
        opts: {
          url?: string;
          types?: string[];
          description?: string;
          header?: string[];
          rateLimit?: string;
          metadata?: string;
        },
      ) =>
        run(context, (a, db) =>
          a.webhooksUpdate(
            db,
            id,
            {
              url: opts.url,
              eventTypes: opts.types,
              description: opts.description,
              headerArguments: opts.header,
              rateLimit: opts.rateLimit,
              metadata: opts.metadata,
            },
            print,
            target(),
          ),
        ),
    );
  webhooks
    .command('remove <id>')
    .description('remove an endpoint and its delivery records')
    .action((id: string) => run(context, (a, db) => a.webhooksRemove(db, id, print)));
  webhooks
    .command('enable <id>')
    .description('send events to an endpoint again (also after it was disabled for failing)')
    .action((id: string) => run(context, (a, db) => a.webhooksEnable(db, id, print)));
  webhooks
    .command('disable <id>')
    .description('stop sending to an endpoint, pending retries included')
    .action((id: string) => run(context, (a, db) => a.webhooksDisable(db, id, print)));
  webhooks
    .command('test <id>')
    .description(
      'send an example now (the webhook.test ping, or --type T), marked test: true, signed and checked like any delivery; nothing is stored',
    )
    .option('--type <type>', `an event type to send an example of (default: ${TEST_EVENT_TYPE})`)
    .action((id: string, opts: { type?: string }) =>
      run(context, (a, db) => a.webhooksTest(db, id, print, target(), opts.type)),
    );
  webhooks
    .command('rotate-secret <id>')
    .description('give an endpoint a new secret (printed once); the old one also signs for 24 hours')
    .action((id: string) => run(context, (a, db) => a.webhooksRotateSecret(db, id, print)));
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
      return run(context, (a, db) => a.webhooksReplay(db, selection, opts.endpoint, print));
    });
  webhooks
    .command('recover <endpoint>')
    .description(
      're-send what failed or gave up since --since (never what succeeded), and what was not sent while the endpoint was disabled, with the same webhook-ids',
    )
    // Parsed in the action, not by commander: a missing <endpoint> or an unknown option is then
    // told before a bad time.
    .requiredOption('--since <time>', 'ISO 8601, or back from now: 30m, 2h, 7d')
    .action((endpointId: string, opts: { since: string }) => {
      const since = sinceOrUsage(opts.since);
      return run(context, (a, db) => a.webhooksRecover(db, endpointId, since, print));
    });
  webhooks
    .command('attempts')
    .description('list delivery attempts, newest first: status, HTTP answer, duration, error')
    .option('--endpoint <id>', 'only this endpoint')
    .option('--event <id>', 'only this event (its webhook-id)')
    .option('--status <status>', 'succeeded, failed (a retry follows) or gave_up', parseAttemptStatus)
    .option('--since <time>', 'made at or after: ISO 8601, or back from now: 30m, 2h, 7d', (v) =>
      parseSince(v),
    )
    .option('--limit <n>', 'at most this many (default 100)', parseLimit, 100)
    .option('--json', 'a JSON array, for scripts')
    .action(
      (opts: {
        endpoint?: string;
        event?: string;
        status?: AttemptStatus;
        since?: Date;
        limit: number;
        json?: boolean;
      }) =>
        run(context, (a, db) =>
          a.webhooksAttempts(
            db,
            {
              endpointId: opts.endpoint,
              eventId: opts.event,
              status: opts.status,
              since: opts.since,
              limit: opts.limit,
            },
            print,
            { json: opts.json },
          ),
        ),
    );
  webhooks
    .command('stats')
    .description(
      'per endpoint: attempts, success rate, p50/p95 duration (last 24 h unless --since), last success and failure',
    )
    .option('--endpoint <id>', 'only this endpoint')
    .option('--since <time>', 'count from: ISO 8601, or back from now (default 24h)', (v) => parseSince(v))
    .option('--json', 'a JSON array, for scripts')
    .action((opts: { endpoint?: string; since?: Date; json?: boolean }) =>
      run(context, (a, db) =>
        a.webhooksStats(db, { endpointId: opts.endpoint, since: opts.since }, print, opts),
      ),
    );
}

function sinceOrUsage(value: string): Date {
  try {
    return parseSince(value);
  } catch (error) {
    throw new UsageError(`--since: ${(error as Error).message}`);
  }
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
