import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Command } from 'commander';
import { PACKAGE_ROOT } from '../runtime/packageRoot.ts';
import { commands } from './commands/index.ts';
import type { CliContext } from './context.ts';
import { UsageError } from './usageError.ts';

const { version } = JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as {
  version: string;
};

/**
 * The commander program with every registered command. Usage errors throw (exitOverride) instead of
 * exiting, so `runCli` maps them to exit code 2; the configuration is validated before any command runs.
 */
export function createProgram(context: CliContext): Command {
  const program = new Command('fulfillment-sync')
    .description(
      'Keeps a Postgres warehouse in step with the fulfillment API; events and webhooks from its changes.',
    )
    .version(version)
    .exitOverride()
    .configureOutput({
      writeOut: (text) => context.print(text.replace(/\n$/, '')),
      writeErr: (text) => context.printError(text.replace(/\n$/, '')),
      // A usage error is one line (README: exit 2, one line per problem): the hint goes on the
      // error's own line, not after it as showHelpAfterError would print it.
      outputError: (text, write) => write(`${text.replace(/\n$/, '')} (run with --help for usage)\n`),
    });
  // Every command validates the configuration first, so a bad environment fails before any work.
  program.hook('preAction', () => {
    context.config();
  });
  for (const register of commands) register(program, context);
  for (const group of program.commands) if (group.commands.length > 0) refuseBareGroup(group);
  return program;
}

/**
 * A command group run without one of its commands (`fulfillment-sync webhooks`) is a usage error
 * of one line naming its commands; commander would print the group's whole help on stderr.
 */
function refuseBareGroup(group: Command): void {
  const names = group.commands.map((c) => c.name()).join(', ');
  const usage = `(run 'fulfillment-sync ${group.name()} --help' for usage)`;
  group.allowExcessArguments(true).action(() => {
    const [unknown] = group.args;
    throw new UsageError(
      unknown === undefined
        ? `'${group.name()}' needs one of its commands: ${names} ${usage}`
        : `unknown command '${group.name()} ${unknown}'; its commands: ${names} ${usage}`,
    );
  });
}
