import type { Queue } from 'bullmq';
import type { Pool } from 'pg';
import { setQueueDepthSource, setStreamLagSource } from '../http/metrics.ts';

const STATES = ['waiting', 'active', 'delayed', 'failed', 'prioritized'] as const;

/** Points the queue-depth and stream-lag gauges at these queues and this database (read at scrape). */
export function wireMetricSources(queues: readonly Queue[], pool: Pool): void {
  setQueueDepthSource(async () => {
    const rows = await Promise.all(
      queues.map(async (q) => {
        const counts = await q.getJobCounts(...STATES);
        return STATES.map((state) => ({ queue: q.name, state, count: counts[state] ?? 0 }));
      }),
    );
    return rows.flat();
  });
  setStreamLagSource(async () => {
    const res = await pool.query<{ stream: string; scope: string; lag: number }>(
      `SELECT stream, scope, extract(epoch FROM now() - last_success_at)::float8 AS lag
         FROM sync.cursors WHERE last_success_at IS NOT NULL`,
    );
    return res.rows.map((r) => ({ stream: r.stream, scope: r.scope, lagSeconds: Number(r.lag) }));
  });
}
