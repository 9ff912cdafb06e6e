import type { Command } from 'commander';
import type { CliContext } from '../context.ts';
import { collectRepeated } from './webhookInputs.ts';

/** Registers `analytics refresh|rebuild`. */
export function registerAnalyticsCommand(program: Command, context: CliContext): void {
  const analytics = program
    .command('analytics')
    .description('bring the analytics tables the worker keeps up to date, or rebuild them whole');
  analytics
    .command('refresh')
    .description(
      'take in every change queued for the analytics tables now (what the worker does every minute)',
    )
    .action(async () => {
      const { analyticsRefreshAction } = await import('../actions/analytics.ts');
      process.exitCode = await analyticsRefreshAction(context);
    });
  analytics
    .command('rebuild')
    .option(
      '--view <table>',
      'rebuild this table (and what reads it) only; repeat for several (default: every table)',
      collectRepeated,
      [],
    )
    .description(
      'recompute analytics tables whole from the synced tables, and the tables reading them; readers keep the old rows until it commits',
    )
    .action(async (options: { view: string[] }) => {
      const { analyticsRebuildAction } = await import('../actions/analytics.ts');
      process.exitCode = await analyticsRebuildAction(context, options.view);
    });
}
