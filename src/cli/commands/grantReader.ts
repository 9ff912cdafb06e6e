import type { Command } from 'commander';
import { applyReaderRole, describeGrant, ReaderRoleError } from '../../db/readerRole.ts';
import { roleNameProblem } from '../../db/roleName.ts';
import { scrubSecrets } from '../../log/scrub.ts';
import type { CliContext } from '../context.ts';
import { EXIT_FAILURE, EXIT_OK } from '../exitCodes.ts';
import { UsageError } from '../usageError.ts';

/**
 * `grant-reader <role> [--full]`: makes a role a read-only user of schema fulfillment, consumer
 * personal data masked (or in clear with --full); returns the exit code.
 */
export async function grantReaderAction(context: CliContext, role: string, full = false): Promise<number> {
  const problem = roleNameProblem(role);
  if (problem) throw new UsageError(`role name ${problem}`);
  try {
    const grant = await applyReaderRole(context.config().databaseUrl, role, full ? 'full' : 'masked');
    context.print(`${describeGrant(grant)}.`);
    if (grant.created) {
      context.print(`To log in with it: ALTER ROLE ${role} LOGIN PASSWORD '...';`);
    }
    return EXIT_OK;
  } catch (error) {
    if (!(error instanceof ReaderRoleError)) throw error;
    context.printError(`error: ${scrubSecrets(error.message)}`);
    return EXIT_FAILURE;
  }
}

/** Registers `grant-reader <role> [--full]` (what FULFILLMENT_READER_ROLE / FULFILLMENT_FULL_READER_ROLE make `migrate` do). */
export function registerGrantReaderCommand(program: Command, context: CliContext): void {
  program
    .command('grant-reader')
    .argument('<role>', 'Postgres role for BI tools (created NOLOGIN if missing)')
    .option('--full', 'personal data in clear (what FULFILLMENT_FULL_READER_ROLE gets); default: masked')
    .description(
      'give a role SELECT on schema fulfillment, consumer personal data masked (fulfillment_masked) unless --full, and nothing else; never schema sync',
    )
    .action(async (role: string, options: { full?: boolean }) => {
      process.exitCode = await grantReaderAction(context, role, options.full === true);
    });
}
