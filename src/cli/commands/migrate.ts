import type { Command } from 'commander';
import type { CliContext } from '../context.ts';

/** Registers `migrate`. */
export function registerMigrateCommand(program: Command, context: CliContext): void {
  program
    .command('migrate')
    .description(
      'create the database if it is missing, apply the migrations (safe to run concurrently), then grant FULFILLMENT_READER_ROLE (personal data masked) and FULFILLMENT_FULL_READER_ROLE (in clear) read access if set',
    )
    .action(async () => {
      const config = context.config();
      const { migrateAction } = await import('../actions/migrate.ts');
      process.exitCode = await migrateAction(
        config.databaseUrl,
        { log: context.print, error: context.printError },
        { readerRole: config.readerRole, fullReaderRole: config.fullReaderRole },
      );
    });
}
