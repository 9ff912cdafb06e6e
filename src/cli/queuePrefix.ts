import { clusterPrefixProblem } from '../config/redisSettings.ts';
import type { Config } from '../config/types.ts';
import type { Queryable } from '../db/queryable.ts';
import { deploymentPrefix, readDeploymentTag } from '../worker/deployment.ts';
import { UsageError } from './usageError.ts';

/**
 * The queue prefix a command uses: `--queue-prefix` when given, else the configuration's. A blank
 * one would put every queue at the top of Redis; on a Cluster one without a hash tag would spread
 * a queue's keys over slots, where BullMQ's scripts fail. Both are refused in one line.
 */
export function queuePrefixOf(
  raw: string | undefined,
  config: Pick<Config, 'queuePrefix' | 'redis'>,
): string {
  if (raw === undefined) return config.queuePrefix;
  if (raw.trim() === '') throw new UsageError('--queue-prefix must not be blank');
  const prefix = raw.trim();
  const problem =
    config.redis.mode === 'cluster' ? clusterPrefixProblem(prefix, '--queue-prefix') : undefined;
  if (problem !== undefined) throw new UsageError(problem);
  return prefix;
}

/**
 * Where the worker keeps this deployment's queues: the command's queue prefix (queuePrefixOf) under
 * the identity of the database `db` reaches (worker/deployment.ts).
 */
export async function deploymentQueuePrefix(
  raw: string | undefined,
  config: Pick<Config, 'queuePrefix' | 'redis'>,
  db: Queryable,
): Promise<string> {
  return deploymentPrefix(queuePrefixOf(raw, config), await readDeploymentTag(db));
}
