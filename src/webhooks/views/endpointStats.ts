import type { Queryable } from '../../db/queryable.ts';
import type { EndpointDisabledBy } from '../../db/schema/webhooks.ts';

/** The window `webhooks stats` and the per-endpoint metrics count over unless told otherwise. */
export const STATS_WINDOW_MS = 24 * 3_600_000;

/** One endpoint's delivery figures over a window (last success and failure: over every kept attempt). */
export interface EndpointStats {
  endpointId: string;
  url: string;
  enabled: boolean;
  disabledBy: EndpointDisabledBy | null;
  /** Start of the window the counts and durations cover. */
  since: Date;
  /** Attempts made in the window. */
  attempts: number;
  succeeded: number;
  /** Failed attempts (a retry followed) and attempts after which the delivery gave up. */
  failed: number;
  gaveUp: number;
  /** succeeded / attempts; null without attempts. */
  successRate: number | null;
  lastSuccessAt: Date | null;
  lastFailureAt: Date | null;
  /** Attempt durations in the window, in milliseconds; null without attempts. */
  p50Ms: number | null;
  p95Ms: number | null;
}

/**
 * Delivery figures per endpoint (one endpoint, or all of them, oldest first), endpoints without
 * attempts included. The counts and percentiles read the window through the (endpoint_id,
 * attempted_at) index; last success and failure each read one row of it backwards.
 */
export async function endpointStats(
  db: Queryable,
  options: { endpointId?: string | undefined; since: Date },
): Promise<EndpointStats[]> {
  const { rows } = await db.query(
    `SELECT e.id, e.url, e.enabled, e.disabled_by, w.attempts, w.succeeded, w.failed, w.gave_up,
            w.p50, w.p95, ls.at AS last_success_at, lf.at AS last_failure_at
       FROM sync.webhook_endpoints e
       CROSS JOIN LATERAL (
         SELECT count(*)::int AS attempts,
                count(*) FILTER (WHERE d.status = 'succeeded')::int AS succeeded,
                count(*) FILTER (WHERE d.status = 'failed')::int AS failed,
                count(*) FILTER (WHERE d.status = 'gave_up')::int AS gave_up,
                percentile_cont(0.5) WITHIN GROUP (ORDER BY d.duration_ms) AS p50,
                percentile_cont(0.95) WITHIN GROUP (ORDER BY d.duration_ms) AS p95
           FROM sync.webhook_deliveries d
          WHERE d.endpoint_id = e.id AND d.attempted_at >= $2) w
       LEFT JOIN LATERAL (
         SELECT d.attempted_at AS at FROM sync.webhook_deliveries d
          WHERE d.endpoint_id = e.id AND d.status = 'succeeded' AND d.attempted_at IS NOT NULL
          ORDER BY d.attempted_at DESC LIMIT 1) ls ON true
       LEFT JOIN LATERAL (
         SELECT d.attempted_at AS at FROM sync.webhook_deliveries d
          WHERE d.endpoint_id = e.id AND d.status IN ('failed', 'gave_up') AND d.attempted_at IS NOT NULL
          ORDER BY d.attempted_at DESC LIMIT 1) lf ON true
      WHERE ($1::text IS NULL OR e.id = $1)
      ORDER BY e.created_at, e.id`,
    [options.endpointId ?? null, options.since],
  );
  return rows.map((row) => {
    const attempts = Number(row.attempts);
    const succeeded = Number(row.succeeded);
    return {
      endpointId: String(row.id),
      url: String(row.url),
      enabled: Boolean(row.enabled),
      disabledBy: (row.disabled_by as EndpointDisabledBy | null) ?? null,
      since: options.since,
      attempts,
      succeeded,
      failed: Number(row.failed),
      gaveUp: Number(row.gave_up),
      successRate: attempts > 0 ? succeeded / attempts : null,
      lastSuccessAt: row.last_success_at ? new Date(row.last_success_at as string) : null,
      lastFailureAt: row.last_failure_at ? new Date(row.last_failure_at as string) : null,
      p50Ms: row.p50 === null ? null : Math.round(Number(row.p50)),
      p95Ms: row.p95 === null ? null : Math.round(Number(row.p95)),
    };
  });
}
