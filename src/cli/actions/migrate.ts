import { type MigrateResult, MigrationError, runMigrations } from '../../db/migrate.ts';
import { describeGrant } from '../../db/readerRole.ts';
import { databaseNameOf } from '../../db/urls.ts';

/** What `migrate` prints on success (one line; never the URL, which may hold a password). */
export function describeMigration(database: string, result: MigrateResult): string {
  const created = result.createdDatabase ? `created database "${database}"; ` : '';
  const applied =
    result.applied === 0
      ? `already up to date (${result.total} migrations)`
      : `applied ${result.applied} of ${result.total} migrations`;
  const grants = [result.fullReader, result.reader].filter((g) => g !== undefined);
  const readers = grants.map((grant) => `; ${describeGrant(grant)}`).join('');
  return `${created}${applied} on "${database}"${readers}.`;
}

/**
 * Runs the migrations against `databaseUrl` (then grants read access to the reader roles, if
 * given), printing one line; returns the exit code.
 */
export async function migrateAction(
  databaseUrl: string,
  out: { log: (line: string) => void; error: (line: string) => void } = console,
  roles: { readerRole?: string | undefined; fullReaderRole?: string | undefined } = {},
): Promise<number> {
  try {
    const options = {
      ...(roles.readerRole ? { readerRole: roles.readerRole } : {}),
      ...(roles.fullReaderRole ? { fullReaderRole: roles.fullReaderRole } : {}),
    };
    const result = await runMigrations(databaseUrl, options);
    out.log(describeMigration(databaseNameOf(databaseUrl), result));
    return 0;
  } catch (error) {
    if (!(error instanceof MigrationError)) throw error;
    out.error(error.message);
    return 1;
  }
}
