import type { Pool } from 'pg';
import type { Logger } from 'pino';
import type { RetentionSettings } from '../config/types.ts';
import { metrics } from '../http/metrics.ts';
import { withPruneLock } from './pruneLock.ts';
import { type PruneOptions, type PruneReport, pruneTables } from './pruner.ts';

/** What one call of `prune` came to: a report, or skipped because another pruner was running. */
export type PruneOutcome = { kind: 'pruned'; report: PruneReport } | { kind: 'skipped' };

/**
 * One prune as the worker's schedule and the `prune` command run it: under the prune lock (another
 * pruner running: skipped at once), every table in batches, each batch counted in
 * `fulfillment_retention_pruned_rows_total` as it commits (a dry run counts nothing there).
 */
export async function prune(
  pool: Pool,
  settings: RetentionSettings,
  options: Omit<PruneOptions, 'settings'> & { logger?: Logger } = {},
): Promise<PruneOutcome> {
  const { logger, ...rest } = options;
  const end = metrics.pruneDuration.startTimer();
  try {
    const locked = await withPruneLock(pool, (client) =>
      pruneTables(client, {
        ...rest,
        settings,
        onBatch: (table, n) => {
          if (!rest.dryRun) metrics.prunedRows.inc({ table }, n);
          rest.onBatch?.(table, n);
        },
      }),
    );
    if (!locked.ran) {
      metrics.pruneRuns.inc({ outcome: 'skipped' });
      logger?.debug('another pruner is running; skipping this prune');
      return { kind: 'skipped' };
    }
    const report = locked.result;
    if (!report.dryRun) {
      end();
      metrics.pruneRuns.inc({ outcome: report.interrupted ? 'interrupted' : 'completed' });
    }
    const removed = Object.fromEntries(
      report.tables.filter((t) => t.removed > 0).map((t) => [t.table, t.removed]),
    );
    if (Object.keys(removed).length > 0 || report.interrupted) {
      logger?.info(
        { removed, seconds: Math.round(report.seconds * 10) / 10, interrupted: report.interrupted },
        report.dryRun ? 'prune dry run' : 'pruned bookkeeping past its retention',
      );
    }
    return { kind: 'pruned', report };
  } catch (error) {
    metrics.pruneRuns.inc({ outcome: 'failed' });
    throw error;
  }
}
