import type { Command } from 'commander';
import { BACKFILL_STREAMS } from '../../backfill/plan.ts';
import type { BackfillCommandOptions } from '../actions/backfill.ts';
import type { CliContext } from '../context.ts';

/** Registers `backfill`. */
export function registerBackfillCommand(program: Command, context: CliContext): void {
  program
    .command('backfill')
    .description('re-read a date range of one stream, window by window; resumable; never moves the cursor')
    .requiredOption('--stream <name>', `one of ${BACKFILL_STREAMS.join(', ')}`)
    .requiredOption('--from <day>', 'first day, yyyy-MM-dd (in FULFILLMENT_TIMEZONE)')
    .requiredOption('--to <day>', 'last day, yyyy-MM-dd, inclusive')
    .option('--scope <id>', 'only this supplier id or account number')
    .option('--emit-events', 'deliver the events this backfill derives (suppressed by default)')
    .option('--queue', 'enqueue one job per window for the workers instead of running in-process')
    .option('--window-days <n>', 'days per window (default 1)')
    .option('--queue-prefix <prefix>', 'Redis key prefix of the queues')
    .action(async (options: BackfillCommandOptions) => {
      const { backfillAction } = await import('../actions/backfill.ts');
      process.exitCode = await backfillAction(context, options);
    });
}
