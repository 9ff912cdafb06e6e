import { type Command, InvalidArgumentError } from 'commander';
import { API_COMMANDS, type ApiCommand, kebab } from '../api/apiCommands.ts';
import type { CliContext } from '../context.ts';

function packingSlipId(value: string, previous: number[] = []): number[] {
  const id = Number(value);
  if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(id)) {
    throw new InvalidArgumentError(`packing slip ids are integers, got "${value}".`);
  }
  return [...previous, id];
}

function registerOne(api: Command, context: CliContext, spec: ApiCommand): void {
  const command = api
    .command(spec.name)
    .description(`${spec.summary} (${spec.operation})`)
    // Bad input is one line: no usage hint after commander's own error.
    .showHelpAfterError(false);
  for (const name of spec.args ?? []) command.argument(`<${kebab(name)}>`);
  if (spec.ids) command.argument('<ids...>', 'packing slip ids (integers)', packingSlipId);
  for (const flag of spec.flags ?? []) {
    const name = kebab(flag.meaning);
    if (flag.boolean) {
      command.option(`--${name}`, `${flag.help ?? flag.meaning}: send true`);
      command.option(`--no-${name}`, 'send false');
    } else if (flag.required) {
      command.requiredOption(`--${name} <value>`, `${flag.help ?? flag.meaning} (required)`);
    } else {
      command.option(`--${name} <value>`, flag.help ?? flag.meaning);
    }
  }
  if (spec.body) command.option('--file <path>', 'the JSON body (default: stdin; "-" also means stdin)');
  command.action(async () => {
    const { apiAction } = await import('../actions/api.ts');
    process.exitCode = await apiAction(context, spec, command);
  });
}

/** Registers `api <operation>`: every operation of the typed client, from the command line. */
export function registerApiCommand(program: Command, context: CliContext): void {
  const api = program
    .command('api')
    .description(
      'call one operation of the fulfillment API and print its payload as JSON (writes read the body from --file or stdin)',
    );
  for (const spec of API_COMMANDS) registerOne(api, context, spec);
}
