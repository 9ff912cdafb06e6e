import type { Command } from 'commander';
import type { CliContext } from '../context.ts';

/** Registers `status`. */
export function registerStatusCommand(program: Command, context: CliContext): void {
  program
    .command('status')
    .description(
      'per stream and scope: cursor, last success, lag (behind what the last successful run covered), last error, rows and events in 24 h, queue depth',
    )
    .option('--json', 'JSON for scripts')
    .option('--queue-prefix <prefix>', 'Redis key prefix of the queues')
    .action(async (options: { json?: boolean; queuePrefix?: string }) => {
      const { statusAction } = await import('../actions/status.ts');
      process.exitCode = await statusAction(context, options);
    });
}
