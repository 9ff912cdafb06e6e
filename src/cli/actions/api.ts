import type { Command } from 'commander';
import { RequestRuleError } from '../../api/index.ts';
import { openUpstream } from '../../runtime/upstream.ts';
import type { ApiCommand, ApiInput } from '../api/apiCommands.ts';
import { payloadOf } from '../api/payload.ts';
import { readJsonBody } from '../api/readBody.ts';
import type { CliContext } from '../context.ts';
import { EXIT_FAILURE } from '../exitCodes.ts';
import { UsageError } from '../usageError.ts';

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
