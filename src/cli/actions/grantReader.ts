import { applyReaderRole, describeGrant, PersonalDataFound, ReaderRoleError } from '../../db/readerRole.ts';
import { roleNameProblem } from '../../db/roleName.ts';
import { scrubSecrets } from '../../log/scrub.ts';
import type { CliContext } from '../context.ts';
import { EXIT_FAILURE, EXIT_OK } from '../exitCodes.ts';
import { UsageError } from '../usageError.ts';

/**
 * `grant-reader <role> [--full]`: makes a role a read-only user of the warehouse, what is marked
 * readable only and consumer personal data masked (or all of it in clear with --full); returns the
 * exit code: 1 when values that look personal kept marked columns from it (the rest is granted).
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
    // What was granted stands (less than asked): say what it is, then why the rest was not.
    if (error instanceof PersonalDataFound) context.print(`${describeGrant(error.grant)}.`);
    context.printError(`error: ${scrubSecrets(error.message)}`);
    return EXIT_FAILURE;
  }
}
