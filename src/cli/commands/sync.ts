import type { Command } from 'commander';
import type { SyncOnceOptions } from '../actions/sync.ts';
import type { CliContext } from '../context.ts';

/** Registers `sync --once`. */
export function registerSyncCommand(program: Command, context: CliContext): void {
  program
    .command('sync')
    .description('run every stream (or one) once, in-process, and print a summary per stream')
    .option('--once', 'run once and exit')
    .option('--stream <name>', 'only this stream')
    .option('--scope <id>', 'only this supplier id or account number')
    .option('--json', 'one JSON object (a summary per stream, the upstream calls) instead of the lines')
    .action(async (options: SyncOnceOptions) => {
      const { syncOnceAction } = await import('../actions/sync.ts');
      process.exitCode = await syncOnceAction(options, {
        env: context.env,
        out: { log: context.print, error: context.printError },
        logger: context.logger(),
      });
    });
}
