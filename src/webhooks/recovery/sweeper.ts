import type { Queryable } from '../../db/queryable.ts';
import { dropExpiredSecrets } from '../endpoints/endpointSecrets.ts';

/**
 * One housekeeping pass of webhook state: forgets rotated-out secrets whose overlap has ended.
 * (Due deliveries need no sweeping: the dispatcher claims them from Postgres directly.)
 */
export async function sweepOnce(
  db: Queryable,
  options: { now?: Date } = {},
): Promise<{ secretsDropped: number }> {
  const secretsDropped = await dropExpiredSecrets(db, options.now ?? new Date());
  return { secretsDropped };
}
