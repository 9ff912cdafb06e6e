import type { Queue } from 'bullmq';
import type { Pool } from 'pg';
import { readViewRefreshStates } from '../analytics/refreshState.ts';
import { setDeliveryBacklogSources } from '../http/deliveryMetrics.ts';
import { setViewRefreshSource } from '../http/freshnessMetrics.ts';
import { sharedRead } from '../http/metricKinds.ts';
import { setQueueDepthSource, setStreamLagSource } from '../http/metrics.ts';
import { readEndpointBacklog, readRelayBacklog } from '../webhooks/views/backlog.ts';

const STATES = ['waiting', 'active', 'delayed', 'failed', 'prioritized'] as const;

/**
 * How long one read serves the gauges over it: the gauges of a group each call their source in
 * the same scrape, which must cost one query.
 */
const SCRAPE_READ_TTL_MS = 1_000;

/**
 * Points the gauges read at scrape time at these queues and this database: queue depths, each
 * stream and scope's data age, the webhook backlog per endpoint and the relay's, and the analytics
 * views' refresh state. A scrape costs one Redis round trip per queue and one query per group.
 */
export function wireMetricSources(
  queues: readonly Queue[],
  pool: Pool,
  now: () => Date = () => new Date(),
): void {
  setQueueDepthSource(async () => {
    const rows = await Promise.all(
      queues.map(async (q) => {
        const counts = await q.getJobCounts(...STATES);
        return STATES.map((state) => ({ queue: q.name, state, count: counts[state] ?? 0 }));
      }),
    );
    return rows.flat();
  });
  // The data age: since the last successful read, as stamped on the cursor (an empty poll too).
  setStreamLagSource(async () => {
    const res = await pool.query<{ stream: string; scope: string; lag: number }>(
      `SELECT stream, scope, extract(epoch FROM now() - last_success_at)::float8 AS lag
         FROM sync.cursors WHERE last_success_at IS NOT NULL`,
    );
    return res.rows.map((r) => ({ stream: r.stream, scope: r.scope, lagSeconds: Number(r.lag) }));
  });
  const secondsSince = (at: Date | null) => (at ? Math.max(0, (now().getTime() - at.getTime()) / 1000) : 0);
  setDeliveryBacklogSources({
    endpoints: sharedRead(
      async () =>
        (await readEndpointBacklog(pool)).map((b) => ({
          endpoint: b.endpointId,
          pending: b.pending,
          oldestPendingSeconds: secondsSince(b.oldestPendingAt),
          failingSeconds: secondsSince(b.failingSince),
        })),
      SCRAPE_READ_TTL_MS,
      now,
    ),
    relay: sharedRead(
      async () => {
        const backlog = await readRelayBacklog(pool);
        return { undispatched: backlog.undispatched, oldestSeconds: secondsSince(backlog.oldestDetectedAt) };
      },
      SCRAPE_READ_TTL_MS,
      now,
    ),
  });
  setViewRefreshSource(
    sharedRead(
      async () =>
        (await readViewRefreshStates(pool)).map((v) => ({
          view: v.relation,
          intervalSeconds: v.intervalMs / 1000,
          ageSeconds: v.refreshedAsOf ? secondsSince(v.refreshedAsOf) : null,
          pending: v.pending,
        })),
      SCRAPE_READ_TTL_MS,
      now,
    ),
  );
}
