import type { Command } from 'commander';
import type { CliContext } from '../context.ts';

/** Registers `demo`. */
export function registerDemoCommand(program: Command, context: CliContext): void {
  program
    .command('demo')
    .description('migrate, sync once against the built-in simulator, and print what landed')
    .option('--json', 'one JSON object (migration, sync summary, rows per table, events) instead of the text')
    .action(async (options: { json?: boolean }) => {
      const { demoAction } = await import('../actions/demo.ts');
      process.exitCode = await demoAction(context, options);
    });
}
