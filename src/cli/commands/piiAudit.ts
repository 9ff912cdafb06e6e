import type { Command } from 'commander';
import type { PiiAuditOptions } from '../actions/piiAudit.ts';
import type { CliContext } from '../context.ts';

/** Registers `pii-audit`. */
export function registerPiiAuditCommand(program: Command, context: CliContext): void {
  program
    .command('pii-audit')
    .description(
      'count the values that look like an e-mail, phone or street line in everything a role can read (every relation and column it can select, JSON at any depth); exit 1 when any is in clear',
    )
    .option('--role <role>', 'the role to audit (default: FULFILLMENT_READER_ROLE, else the connecting user)')
    .option('--rows <n>', 'rows read per relation, newest first where it has synced_at (default 1000)')
    .option('--full', 'read every row of every relation (hours on a large warehouse)')
    .option('--json', 'JSON for scripts')
    .action(async (options: PiiAuditOptions) => {
      const { piiAuditAction } = await import('../actions/piiAudit.ts');
      process.exitCode = await piiAuditAction(context, options);
    });
}
