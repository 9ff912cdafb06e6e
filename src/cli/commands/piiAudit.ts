import { type Command, InvalidArgumentError, Option } from 'commander';
import type { PiiAuditOptions } from '../actions/piiAudit.ts';
import type { CliContext } from '../context.ts';

/** `--rows`: a whole number from 1 to 1,000,000,000. */
export function parseAuditRows(value: string): number {
  if (!/^[1-9]\d{0,8}$/.test(value.trim())) {
    throw new InvalidArgumentError(`"${value}" is not a number of rows: use a whole number >= 1.`);
  }
  return Number(value.trim());
}

/** Registers `pii-audit`. */
export function registerPiiAuditCommand(program: Command, context: CliContext): void {
  program
    .command('pii-audit')
    .description(
      'count the values that look like an e-mail, phone or street line in everything a role can read (every relation and column it can select, JSON at any depth); exit 1 when any is in clear',
    )
    .option('--role <role>', 'the role to audit (default: FULFILLMENT_READER_ROLE, else the connecting user)')
    .addOption(
      new Option(
        '--rows <n>',
        'rows read per relation, newest first where it has synced_at (default 1000)',
      ).argParser(parseAuditRows),
    )
    .addOption(
      new Option('--full', 'read every row of every relation (hours on a large warehouse)').conflicts('rows'),
    )
    .option('--json', 'JSON for scripts')
    .action(async (options: PiiAuditOptions) => {
      const { piiAuditAction } = await import('../actions/piiAudit.ts');
      process.exitCode = await piiAuditAction(context, options);
    });
}
