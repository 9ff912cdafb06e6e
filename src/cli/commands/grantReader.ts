import type { Command } from 'commander';
import type { CliContext } from '../context.ts';

/** Registers `grant-reader <role> [--full]`. */
export function registerGrantReaderCommand(program: Command, context: CliContext): void {
  program
    .command('grant-reader')
    .argument('<role>', 'Postgres role for BI tools (created NOLOGIN if missing)')
    .option('--full', 'personal data in clear (what FULFILLMENT_FULL_READER_ROLE gets); default: masked')
    .description(
      'give a role SELECT on schema fulfillment, consumer personal data masked (fulfillment_masked) unless --full, and nothing else; never schema sync',
    )
    .action(async (role: string, options: { full?: boolean }) => {
      const { grantReaderAction } = await import('../actions/grantReader.ts');
      process.exitCode = await grantReaderAction(context, role, options.full === true);
    });
}
