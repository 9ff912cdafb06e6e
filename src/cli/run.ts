import { CommanderError } from 'commander';
import { ConfigError } from '../config/configError.ts';
import { describeConnectionProblem } from '../db/connectionProblem.ts';
import { scrubSecrets } from '../log/scrub.ts';
import { type CliContext, createCliContext } from './context.ts';
import { EXIT_FAILURE, EXIT_OK, EXIT_USAGE } from './exitCodes.ts';
import { createProgram } from './program.ts';
import { UsageError } from './usageError.ts';

/**
 * Runs the CLI on `argv` (process.argv form) and resolves to the exit code: 0 ok, 1 failure, 2 bad
 * usage (including an invalid configuration). Errors become short lines on stderr, never a stack trace
 * unless LOG_LEVEL is debug or trace.
 */
export async function runCli(
  argv: readonly string[],
  context: CliContext = createCliContext(),
): Promise<number> {
  const program = createProgram(context);
  try {
    await program.parseAsync([...argv]);
    return Number(process.exitCode ?? EXIT_OK);
  } catch (error) {
    return reportError(error, context);
  }
}

/** The configured DATABASE_URL, to tell its connection errors apart ('' when the configuration is invalid). */
function databaseUrlOf(context: CliContext): string {
  try {
    return context.config().databaseUrl;
  } catch {
    return '';
  }
}

function reportError(error: unknown, context: CliContext): number {
  if (error instanceof ConfigError) {
    for (const problem of error.problems) context.printError(problem);
    return EXIT_USAGE;
  }
  if (error instanceof CommanderError) {
    // Commander already printed its message; help and version are not errors.
    const benign = ['commander.helpDisplayed', 'commander.version', 'commander.help'];
    return benign.includes(error.code) && error.exitCode === 0 ? EXIT_OK : EXIT_USAGE;
  }
  if (error instanceof UsageError) {
    context.printError(`error: ${scrubSecrets(error.message)}`);
    return EXIT_USAGE;
  }
  const database = describeConnectionProblem(error, databaseUrlOf(context));
  const message = database ?? (error instanceof Error ? error.message : String(error));
  context.printError(`error: ${scrubSecrets(message.split('\n')[0] ?? '')}`);
  if (/^(debug|trace)$/i.test(context.env.LOG_LEVEL?.trim() ?? '') && error instanceof Error && error.stack) {
    context.printError(scrubSecrets(error.stack));
  }
  return EXIT_FAILURE;
}
