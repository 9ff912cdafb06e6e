import type { Command } from 'commander';
import { type MigrateResult, MigrationError, runMigrations } from '../../db/migrate.ts';
import { describeGrant } from '../../db/readerRole.ts';
import { databaseNameOf } from '../../db/urls.ts';
import type { CliContext } from '../context.ts';

/** What `migrate` prints on success (one line; never the URL, which may hold a password). */
export function describeMigration(database: string, result: MigrateResult): string {
  const created = result.createdDatabase ? `created database "${database}"; ` : '';
  const applied =
    result.applied === 0
      ? `already up to date (${result.total} migrations)`
      : `applied ${result.applied} of ${result.total} migrations`;
  const reader = result.reader ? `; ${describeGrant(result.reader)}` : '';
  return `${created}${applied} on "${database}"${reader}.`;
}

/**
 * Runs the migrations against `databaseUrl` (then grants read access to `readerRole`, if given),
 * printing one line; returns the exit code.
 */
export async function migrateAction(
  databaseUrl: string,
  out: { log: (line: string) => void; error: (line: string) => void } = console,
  readerRole?: string,
): Promise<number> {
  try {
    const result = await runMigrations(databaseUrl, readerRole ? { readerRole } : {});
    out.log(describeMigration(databaseNameOf(databaseUrl), result));
    return 0;
  } catch (error) {
    if (!(error instanceof MigrationError)) throw error;
    out.error(error.message);
    return 1;
  }
}

/** Registers `migrate`: creates the database if it is missing, then applies the migrations. */
export function registerMigrateCommand(program: Command, context: CliContext): void {
  program
    .command('migrate')
    .description(
      'create the database if it is missing, apply the migrations (safe to run concurrently), then grant FULFILLMENT_READER_ROLE read access if set',
    )
    .action(async () => {
      const config = context.config();
      process.exitCode = await migrateAction(
        config.databaseUrl,
        { log: context.print, error: context.printError },
        config.readerRole,
      );
    });
}
