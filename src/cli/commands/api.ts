import { type Command, InvalidArgumentError } from 'commander';
import { RequestRuleError } from '../../api/index.ts';
import { openUpstream } from '../../runtime/upstream.ts';
import { API_COMMANDS, type ApiCommand, type ApiInput, kebab } from '../api/apiCommands.ts';
import { payloadOf } from '../api/payload.ts';
import { readJsonBody } from '../api/readBody.ts';
import type { CliContext } from '../context.ts';
import { EXIT_FAILURE } from '../exitCodes.ts';
import { UsageError } from '../usageError.ts';

function packingSlipId(value: string, previous: number[] = []): number[] {
  const id = Number(value);
  if (!/^-?\d+$/.test(value.trim()) || !Number.isSafeInteger(id)) {
    throw new InvalidArgumentError(`packing slip ids are integers, got "${value}".`);
  }
  return [...previous, id];
}

/** The command's input from commander's parsed arguments and options (the body is read later). */
function inputOf(spec: ApiCommand, command: Command): Omit<ApiInput, 'body'> {
  const values = command.processedArgs as unknown[];
  const args = Object.fromEntries((spec.args ?? []).map((name, i) => [name, String(values[i])]));
  const options = command.opts<Record<string, string | boolean | undefined>>();
  const query: Record<string, string | boolean> = {};
  for (const flag of spec.flags ?? []) {
    const value = options[flag.meaning];
    if (value !== undefined) query[flag.meaning] = value;
  }
  const ids = spec.ids ? ((values[0] as number[] | undefined) ?? []) : [];
  return { args, query, ids };
}

/**
 * Runs one operation: reads and checks the input (a bad one is a UsageError, exit 2, before any call:
 * the client checks the spec's rules before it sends), calls it, and prints the payload as JSON.
 */
export async function apiAction(context: CliContext, spec: ApiCommand, command: Command): Promise<number> {
  const file = command.opts<{ file?: string }>().file;
  const body = spec.body ? await readJsonBody({ file, stdin: context.stdin }) : undefined;
  const input: ApiInput = { ...inputOf(spec, command), body };
  const upstream = await openUpstream(context.config(), context.logger().child({ command: 'api' }));
  try {
    const { payload, rejected } = payloadOf(spec.kind, await spec.call(upstream.client, input));
    context.print(JSON.stringify(payload, null, 2));
    for (const reason of rejected) {
      context.printError(`warning: record ${reason} (it failed the spec's schema; printed as received)`);
    }
    if (spec.kind === 'detail' && payload === null) {
      context.printError(`${spec.operation}: not found.`);
      return EXIT_FAILURE;
    }
    return 0;
  } catch (error) {
    if (error instanceof RequestRuleError) throw new UsageError(error.message);
    throw error;
  } finally {
    await upstream.close();
  }
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
