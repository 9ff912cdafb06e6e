import type { Command } from 'commander';
import { TEST_EVENT_TYPE } from '../../events/types.ts';
import type { CliContext } from '../context.ts';
import { registerWebhookDeliveryCommands } from './webhookDeliveries.ts';
import { checkedFilter, collectRepeated, parseList, parseTypes } from './webhookInputs.ts';
import { registerWebhookListenCommand } from './webhookListen.ts';
import { type Print, runWebhookAction as run } from './webhookRun.ts';

const TYPES_HELP =
  'comma list of event types, or families as shipment.* (also types added to it later), to send';
const ACCOUNTS_HELP =
  'only events of these accounts (comma list of account numbers: shipments, orders, returns, invoices)';
const SUPPLIERS_HELP =
  'only events of these suppliers (comma list of supplier ids: products, inventory, transfers)';

/**
 * Registers `webhooks add|list|get|update|remove|enable|disable|test|rotate-secret`, then the
 * delivery commands (replay, recover, resend, attempts, stats) and `listen`.
 */
export function registerWebhooksCommand(program: Command, context: CliContext): void {
  const webhooks = program
    .command('webhooks')
    .description('manage outgoing webhook endpoints (Standard Webhooks)');
  const print: Print = (line) => context.print(line);
  const target = () => ({ policy: context.config().webhooks });
  const configured = () => context.config();
  webhooks
    .command('add <url>')
    .description('add an endpoint; prints its id and signing secret once')
    .option('--types <types>', `${TYPES_HELP} (default: all)`, parseTypes)
    .option('--accounts <ids>', `${ACCOUNTS_HELP}; with --suppliers: of either`, parseList)
    .option('--suppliers <ids>', SUPPLIERS_HELP, parseList)
    .option('--description <text>', 'free text to tell endpoints apart')
    .action(
      (
        url: string,
        opts: { types?: string[]; accounts?: string[]; suppliers?: string[]; description?: string },
      ) => {
        checkedFilter(opts);
        return run(context, (a, db) =>
          a.webhooksAdd(db, url, opts.types ?? [], print, target(), {
            description: opts.description,
            accountNumbers: opts.accounts,
            supplierIds: opts.suppliers,
            configured: configured(),
          }),
        );
      },
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
    .description(
      'show one endpoint: url, types, scopes, state, headers, rate limit, metadata (secret masked)',
    )
    .option('--json', 'a JSON object, for scripts')
    .action((id: string, opts: { json?: boolean }) =>
      run(context, (a, db) => a.webhooksGet(db, id, print, opts)),
    );
  webhooks
    .command('update <id>')
    .description('change an endpoint in place: its id, secret and delivery history stay')
    .option('--url <url>', 'a new URL (checked like `add` checks it)')
    .option('--types <types>', `${TYPES_HELP}; "all" for every type`, parseTypes)
    .option('--accounts <ids>', `${ACCOUNTS_HELP}; "" clears`, parseList)
    .option('--suppliers <ids>', `${SUPPLIERS_HELP}; "" clears (both clear: every scope)`, parseList)
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
          accounts?: string[];
          suppliers?: string[];
          description?: string;
          header?: string[];
          rateLimit?: string;
          metadata?: string;
        },
      ) => {
        checkedFilter(opts);
        return run(context, (a, db) =>
          a.webhooksUpdate(
            db,
            id,
            {
              url: opts.url,
              eventTypes: opts.types,
              accountNumbers: opts.accounts,
              supplierIds: opts.suppliers,
              description: opts.description,
              headerArguments: opts.header,
              rateLimit: opts.rateLimit,
              metadata: opts.metadata,
            },
            print,
            target(),
            configured(),
          ),
        );
      },
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
  registerWebhookDeliveryCommands(webhooks, context);
  registerWebhookListenCommand(webhooks, context);
}
