import { createDatabase } from '../../db/client.ts';
import { prune } from '../../retention/prune.ts';
import type { PruneReport } from '../../retention/pruner.ts';
import { RETENTION_SETTING, RETENTION_VARIABLE } from '../../retention/rules.ts';
import type { CliContext } from '../context.ts';
import { EXIT_FAILURE, EXIT_OK } from '../exitCodes.ts';

/** Options of `prune`. */
export interface PruneCommandOptions {
  dryRun?: boolean;
  json?: boolean;
}

/** The lines `prune` prints: per table, what went (or would go) and by which setting. */
export function formatPruneReport(report: PruneReport): string[] {
  const verb = report.dryRun ? 'would remove' : 'removed';
  const lines = report.tables.map(({ table, removed, cutoff }) => {
    const setting = RETENTION_SETTING[table];
    const rule =
      table === 'sync.webhook_delivery_states'
        ? 'with their events'
        : cutoff === null
          ? `kept forever (${RETENTION_VARIABLE[setting]}=0)`
          : `before ${cutoff.toISOString()} (${RETENTION_VARIABLE[setting]})`;
    return `${table}: ${verb} ${removed} ${removed === 1 ? 'row' : 'rows'}, ${rule}`;
  });
  const total = report.tables.reduce((sum, t) => sum + t.removed, 0);
  lines.push(
    `${report.dryRun ? 'dry run: nothing changed; would remove' : 'removed'} ${total} rows in ${report.seconds.toFixed(1)} s`,
  );
  if (report.interrupted) lines.push(`stopped early (${report.interrupted}); run it again to carry on`);
  return lines;
}

/**
 * `prune [--dry-run] [--json]`: what the worker's schedule does, now: removes bookkeeping rows past
 * their retention (or counts them, changing nothing) and says what. Exit 1 when another pruner (a
 * worker's) is running: it never waits for it.
 */
export async function pruneAction(context: CliContext, options: PruneCommandOptions): Promise<number> {
  const config = context.config();
  const database = createDatabase(config.databaseUrl, {
    max: 1,
    applicationName: 'fulfillment-sync prune',
    settings: config.database,
    work: 'long',
  });
  try {
    const outcome = await prune(database.pool, config.retention, { dryRun: options.dryRun ?? false });
    if (outcome.kind === 'skipped') {
      context.printError(
        'error: another pruner is running (a worker or another `prune`); nothing removed, try again later',
      );
      return EXIT_FAILURE;
    }
    if (options.json) context.print(JSON.stringify(outcome.report));
    else for (const line of formatPruneReport(outcome.report)) context.print(line);
    return EXIT_OK;
  } finally {
    await database.close();
  }
}
