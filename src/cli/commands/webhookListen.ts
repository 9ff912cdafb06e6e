import { type Command, InvalidArgumentError } from 'commander';
import type { CliContext } from '../context.ts';
import { checkedFilter, parseList, parseTypes } from './webhookInputs.ts';

/** Where `webhooks listen` listens unless told (the simulator's default is 4010). */
export const DEFAULT_LISTEN_PORT = 4020;

function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535) {
    throw new InvalidArgumentError(`"${value}" is not a port: use 0 (any free one) to 65535.`);
  }
  return port;
}

/** Registers `webhooks listen` on the `webhooks` group. */
export function registerWebhookListenCommand(webhooks: Command, context: CliContext): void {
  webhooks
    .command('listen')
    .description(
      'receive deliveries on this machine: verifies each signature, prints it, answers 200 (verified) or 401; adds a temporary endpoint pointing here (its secret printed) unless --secret, removed on Ctrl-C',
    )
    .option('--port <n>', 'port on 127.0.0.1 (0: any free one)', parsePort, DEFAULT_LISTEN_PORT)
    .option('--secret <whsec>', 'verify with this secret and add no endpoint (point one of yours here)')
    .option(
      '--types <types>',
      'the temporary endpoint’s types or families (shipment.*), default all',
      parseTypes,
    )
    .option('--accounts <ids>', 'the temporary endpoint’s accounts (comma list)', parseList)
    .option('--suppliers <ids>', 'the temporary endpoint’s suppliers (comma list)', parseList)
    .option('--json', 'one JSON line per delivery, with its body')
    .action(
      async (opts: {
        port: number;
        secret?: string;
        types?: string[];
        accounts?: string[];
        suppliers?: string[];
        json?: boolean;
      }) => {
        checkedFilter(opts);
        const { webhooksListen } = await import('../actions/webhookListen.ts');
        await webhooksListen(context, { ...opts, types: opts.types ?? [] });
      },
    );
}
