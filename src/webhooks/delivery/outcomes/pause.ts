import type { Queryable } from '../../../db/queryable.ts';
import type { AttemptResult } from '../post/attempt.ts';
import { MAX_RETRY_DELAY_MS } from '../schedule.ts';

/** Answers by which a receiver asks to be sent less (with a Retry-After saying for how long). */
const SLOW_DOWN_STATUSES = new Set([429, 503]);

/**
 * Until when an endpoint is paused after this answer: a 429 or 503 with a Retry-After pauses every
 * delivery to that endpoint (and to no other) for as long as it asked, at most MAX_RETRY_DELAY_MS.
 * Undefined: no pause. Pure.
 */
export function pauseAfter(
  result: Pick<AttemptResult, 'statusCode' | 'retryAfterMs'>,
  attemptedAt: Date,
): Date | undefined {
  if (result.statusCode === null || !SLOW_DOWN_STATUSES.has(result.statusCode)) return undefined;
  if (result.retryAfterMs === undefined || result.retryAfterMs <= 0) return undefined;
  return new Date(attemptedAt.getTime() + Math.min(result.retryAfterMs, MAX_RETRY_DELAY_MS));
}

/** Pauses an endpoint until `until` (a pause already reaching further is kept). */
export async function pauseEndpoint(db: Queryable, endpointId: string, until: Date): Promise<void> {
  await db.query(
    `UPDATE sync.webhook_endpoints SET paused_until = GREATEST(paused_until, $2::timestamptz)
      WHERE id = $1`,
    [endpointId, until],
  );
}
