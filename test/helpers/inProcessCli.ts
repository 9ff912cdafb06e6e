import { createCliContext } from '../../src/cli/context.ts';
import { runCli } from '../../src/cli/run.ts';

/** What a CLI command run in this process printed, and its exit code. */
export interface InProcessCliResult {
  code: number;
  out: string[];
  err: string[];
}

/**
 * Runs `fulfillment-sync <args>` in this process (src/ as it is now) with `env` on top of the test's
 * own environment, capturing its two outputs line by line; process.exitCode is left as it was.
 */
export async function runCliInProcess(
  args: string[],
  env: Record<string, string>,
): Promise<InProcessCliResult> {
  const out: string[] = [];
  const err: string[] = [];
  const previousCode = process.exitCode;
  try {
    const context = createCliContext({
      env: { ...process.env, LOG_LEVEL: 'silent', ...env },
      print: (line) => out.push(line),
      printError: (line) => err.push(line),
    });
    return { code: await runCli(['node', 'fulfillment-sync', ...args], context), out, err };
  } finally {
    process.exitCode = previousCode;
  }
}
