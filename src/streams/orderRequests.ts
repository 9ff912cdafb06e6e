import type { PoolClient } from 'pg';

/**
 * Orders named by changed shipments and returns: the orders stream fetches their detail. Stored in
 * `sync.order_detail_requests` (one row per account and order, so repeated names deduplicate).
 * Naming an already requested order moves its `requested_at` forward: an orders run that read the
 * request before this change then leaves it queued (it deletes only what it read), so the change
 * is fetched by the next run instead of being lost.
 */
export async function requestOrderDetails(
  tx: Pick<PoolClient, 'query'>,
  accountNumber: string,
  orderNumbers: readonly (string | null | undefined)[],
  reason: string,
): Promise<number> {
  const unique = [...new Set(orderNumbers.filter((n): n is string => typeof n === 'string' && n.length > 0))];
  if (unique.length === 0) return 0;
  await tx.query(
    `INSERT INTO sync.order_detail_requests (account_number, order_number, reason)
     SELECT $1, n, $2 FROM unnest($3::text[]) AS u(n)
     ON CONFLICT (account_number, order_number) DO UPDATE
       SET requested_at = greatest(clock_timestamp(), sync.order_detail_requests.requested_at + interval '1 microsecond')`,
    [accountNumber, reason, unique],
  );
  return unique.length;
}
