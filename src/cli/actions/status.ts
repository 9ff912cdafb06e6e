import { createDatabase } from '../../db/client.ts';
import { pollPlan } from '../../polling/pollPlan.ts';
import { readOldestKept } from '../../retention/oldestKept.ts';
import type { CliContext } from '../context.ts';
import { deploymentQueuePrefix } from '../queuePrefix.ts';
import { withPlannedScopes } from '../status/plannedScopes.ts';
import { formatPolling, pollingStatus } from '../status/pollingStatus.ts';
import { readQueueDepths } from '../status/queueDepths.ts';
import { formatRetention, formatStatusTable } from '../status/statusTable.ts';
import { readStreamStatus } from '../status/streamStatus.ts';

/** `status [--json]`: prints the table (or JSON) and answers the exit code. */
export async function statusAction(
  context: CliContext,
  options: { json?: boolean; queuePrefix?: string },
): Promise<number> {
  const config = context.config();
  const database = createDatabase(config.databaseUrl, {
    max: 1,
    applicationName: 'fulfillment-sync status',
    settings: config.database,
  });
  try {
    const rows = await readStreamStatus(database.pool, config.timezone);
    const retention = await readOldestKept(database.pool, config.retention);
    const prefix = await deploymentQueuePrefix(options.queuePrefix, config, database.pool);
    const depths = await readQueueDepths(config.redis, prefix);
    for (const row of rows) row.queueDepth = depths ? (depths.get(`${row.stream}:${row.scope}`) ?? 0) : null;
    // The plan the worker registers under the same configuration (every worker shares it).
    const polling = pollingStatus(pollPlan(withPlannedScopes(config, rows)), rows);
    if (options.json) {
      const queues = depths ? 'available' : 'unavailable';
      context.print(JSON.stringify({ queues, streams: rows, polling, retention }));
    } else {
      for (const line of formatStatusTable(rows, depths !== undefined)) context.print(line);
      for (const line of formatPolling(polling)) context.print(line);
      for (const line of formatRetention(retention)) context.print(line);
    }
    return 0;
  } finally {
    await database.close();
  }
}
