import type { Command } from 'commander';
import type { CliContext } from '../context.ts';

/** Registers `grant-reader <role> [--full]`. */
export function registerGrantReaderCommand(program: Command, context: CliContext): void {
  program
    .command('grant-reader')
    .argument('<role>', 'Postgres role for BI tools (created NOLOGIN if missing)')
    .option('--full', 'personal data in clear (what FULFILLMENT_FULL_READER_ROLE gets); default: masked')
    .description(
      'give a role SELECT on the columns marked readable (the tables through their masking views in fulfillment_masked, the views of fulfillment, analytics), or on all of it in clear with --full, and nothing else; never schema sync; exit 1 when values that look personal kept marked columns from it',
    )
    .action(async (role: string, options: { full?: boolean }) => {
      const { grantReaderAction } = await import('../actions/grantReader.ts');
      process.exitCode = await grantReaderAction(context, role, options.full === true);
    });
}
