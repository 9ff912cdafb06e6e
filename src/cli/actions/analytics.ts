import { type RefreshOutcome, rebuildAnalytics, refreshAllAnalytics } from '../../analytics/refresh.ts';
import { MAINTAINED } from '../../analytics/views.ts';
import { createDatabase } from '../../db/client.ts';
import type { CliContext } from '../context.ts';
import { EXIT_FAILURE, EXIT_OK } from '../exitCodes.ts';
import { UsageError } from '../usageError.ts';

/** `--view` names: a table the worker keeps, with or without `analytics.`. */
export function maintainedTables(names: readonly string[]): string[] {
  return names.map((name) => {
    const relation = name.includes('.') ? name : `analytics.${name}`;
    if (!MAINTAINED.includes(relation)) {
      const known = MAINTAINED.map((r) => r.slice('analytics.'.length)).join(', ');
      throw new UsageError(`--view ${name}: not a table the worker keeps (one of ${known})`);
    }
    return relation;
  });
}

/** One line per table: what its refresh did. */
export function describeOutcome(o: RefreshOutcome): string {
  const seconds = `${(o.durationMs / 1000).toFixed(1)} s`;
  const did = o.rebuilt ? `rebuilt whole in ${seconds}` : `took in ${o.changes} changes in ${seconds}`;
  return `${o.relation.padEnd(38)} ${o.status === 'failed' ? `FAILED: ${o.error}` : did}`;
}

async function run(
  context: CliContext,
  refresh: (pool: ReturnType<typeof createDatabase>['pool']) => Promise<RefreshOutcome[]>,
): Promise<number> {
  const config = context.config();
  const database = createDatabase(config.databaseUrl, {
    max: 2,
    applicationName: 'fulfillment-sync analytics',
  });
  try {
    // A database that cannot be reached is one line from the CLI's error handling, not a failed table per line.
    await database.pool.query('SELECT 1');
    const outcomes = await refresh(database.pool);
    for (const o of outcomes.filter((o) => o.status !== 'failed')) context.print(describeOutcome(o));
    const failed = outcomes.filter((o) => o.status === 'failed');
    for (const o of failed) context.printError(`error: ${o.relation}: ${o.error}`);
    return failed.length > 0 ? EXIT_FAILURE : EXIT_OK;
  } finally {
    await database.close();
  }
}

/** `analytics refresh`: every table takes in what is queued for it now (waiting for a worker's refresh). */
export function analyticsRefreshAction(context: CliContext): Promise<number> {
  return run(context, (pool) => refreshAllAnalytics(pool, { wait: true }));
}

/** `analytics rebuild [--view T]...`: rebuilds the tables (default all), then what reads them. */
export function analyticsRebuildAction(context: CliContext, views: readonly string[]): Promise<number> {
  const relations = views.length === 0 ? [...MAINTAINED] : maintainedTables(views);
  return run(context, (pool) => rebuildAnalytics(pool, relations, { wait: true }));
}
