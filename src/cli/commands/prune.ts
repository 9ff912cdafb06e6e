import type { Command } from 'commander';
import type { PruneCommandOptions } from '../actions/prune.ts';
import type { CliContext } from '../context.ts';

/** Registers `prune`. */
export function registerPruneCommand(program: Command, context: CliContext): void {
  program
    .command('prune')
    .description(
      'remove bookkeeping rows past their retention (RETENTION_*_DAYS) as the worker does on its schedule, and say what went',
    )
    .option('--dry-run', 'count what would go; change nothing')
    .option('--json', 'JSON for scripts')
    .action(async (options: PruneCommandOptions) => {
      const { pruneAction } = await import('../actions/prune.ts');
      process.exitCode = await pruneAction(context, options);
    });
}
