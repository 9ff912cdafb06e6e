import type { Command } from 'commander';
import { redactConfig } from '../../config/redact.ts';
import type { CliContext } from '../context.ts';

/** Registers `config`: prints the effective configuration with secrets redacted. */
export function registerConfigCommand(program: Command, context: CliContext): void {
  program
    .command('config')
    .description('print the effective configuration (secrets redacted)')
    .option('--json', 'one line of JSON, for scripts')
    .action((options: { json?: boolean }) => {
      const redacted = redactConfig(context.config());
      context.print(options.json ? JSON.stringify(redacted) : JSON.stringify(redacted, null, 2));
    });
}
