import type { Queryable } from '../db/queryable.ts';
import { requestDetails } from '../sync/detailRequests.ts';

/**
 * Orders named by changed shipments and returns: the orders stream fetches their detail from the
 * detail queue (`sync.detail_requests`, stream 'orders', scope the account).
 */
export function requestOrderDetails(
  tx: Queryable,
  accountNumber: string,
  orderNumbers: readonly (string | null | undefined)[],
  reason: string,
): Promise<number> {
  return requestDetails(tx, 'orders', accountNumber, orderNumbers, reason);
}
