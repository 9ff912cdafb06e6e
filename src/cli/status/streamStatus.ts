import type { Pool } from 'pg';
import { DAY_WINDOW_STREAMS } from '../../config/streamDefaults.ts';
import type { StreamName } from '../../config/types.ts';
import { wallClockDay } from '../../time/index.ts';

/** One line of `status`: a stream for a scope. */
export interface StreamStatus {
  stream: string;
  scope: string;
  /** The cursor position (sync.cursors.position_at): where time-window streams have read up to. */
  cursor: string | null;
  lastSuccessAt: string | null;
  /**
   * Seconds behind now: from what the last successful run covered. Minute-window streams: the
   * cursor. Day-window streams: the end of the cursor's day, or the last success when that day was
   * still going (the run read it up to then). Others: the last success.
   */
  lagSeconds: number | null;
  /** What `lagSeconds` is measured from; null when nothing succeeded yet. */
  lagFrom: 'cursor' | 'coverage' | 'lastSuccess' | null;
  lastError: string | null;
  lastErrorAt: string | null;
  rows24h: number;
  events24h: number;
  /** Upstream calls of the last run (one cycle of this stream and scope); null before the first. */
  callsPerCycle: number | null;
  /** Detail calls (orders, INs, products) still to be fetched, incl. ones waiting out a backoff. */
  detailsPending: number;
  /** Details whose attempts ran out: in sync.rejected_records, no longer fetched. */
  detailsQuarantined: number;
  /** Rows kept in 24 h by withheld vanishes (a large shrink no further read confirmed). */
  vanishWithheld24h: number;
  /** Sync jobs waiting, delayed or active for this stream and scope; null when Redis is unavailable. */
  queueDepth: number | null;
}

/** Reads the per stream and scope status from sync.cursors and sync.runs; day windows are in `timezone`. */
export async function readStreamStatus(
  pool: Pool,
  timezone: string,
  now = new Date(),
): Promise<StreamStatus[]> {
  const res = await pool.query<{
    stream: string;
    scope: string;
    position_at: Date | null;
    last_success_at: Date | null;
    last_error: string | null;
    last_error_at: Date | null;
    rows24h: string;
    events24h: string;
    withheld24h: string;
    pending: string | null;
    quarantined: string | null;
    calls: string | null;
  }>(
    `WITH keys AS (SELECT stream, scope FROM sync.cursors UNION SELECT DISTINCT stream, scope FROM sync.runs),
          details AS (SELECT stream, scope, count(*) FILTER (WHERE quarantined_at IS NULL) AS pending,
                             count(*) FILTER (WHERE quarantined_at IS NOT NULL) AS quarantined
                        FROM sync.detail_requests GROUP BY stream, scope)
     SELECT k.stream, k.scope, c.position_at, c.last_success_at,
            e.error AS last_error, e.finished_at AS last_error_at,
            coalesce(r.rows, 0) AS rows24h, coalesce(r.events, 0) AS events24h,
            coalesce(r.withheld, 0) AS withheld24h,
            d.pending, d.quarantined, c.last_run->>'calls' AS calls
       FROM keys k
       LEFT JOIN details d ON d.stream = k.stream AND d.scope = k.scope
       LEFT JOIN sync.cursors c ON c.stream = k.stream AND c.scope = k.scope
       LEFT JOIN LATERAL (
         SELECT error, finished_at FROM sync.runs f
          WHERE f.stream = k.stream AND f.scope = k.scope AND f.status = 'failed'
            AND (c.last_success_at IS NULL OR f.finished_at > c.last_success_at)
          ORDER BY f.finished_at DESC LIMIT 1) e ON true
       LEFT JOIN LATERAL (
         SELECT sum(inserted + updated) AS rows, sum(events) AS events, sum(vanish_withheld) AS withheld
           FROM sync.runs w
          WHERE w.stream = k.stream AND w.scope = k.scope AND w.started_at > $1::timestamptz - interval '24 hours') r ON true
      ORDER BY k.stream, k.scope`,
    [now],
  );
  return res.rows.map((r) => ({
    stream: r.stream,
    scope: r.scope,
    cursor: r.position_at?.toISOString() ?? null,
    lastSuccessAt: r.last_success_at?.toISOString() ?? null,
    ...lag(r.position_at, r.last_success_at, now, {
      dayWindows: DAY_WINDOW_STREAMS.includes(r.stream as StreamName),
      timezone,
    }),
    lastError: r.last_error,
    lastErrorAt: r.last_error_at?.toISOString() ?? null,
    rows24h: Number(r.rows24h),
    events24h: Number(r.events24h),
    vanishWithheld24h: Number(r.withheld24h),
    callsPerCycle: r.calls === null ? null : Number(r.calls),
    detailsPending: Number(r.pending ?? 0),
    detailsQuarantined: Number(r.quarantined ?? 0),
    queueDepth: null,
  }));
}

/**
 * Lag of a stream and scope: how far behind now the data is, measured from what the last successful
 * run covered. A minute-window stream covered up to its cursor. A day-window stream's cursor is the
 * start of the last day it read, and it read that day up to when it ran: it covered the day's end,
 * or its last success while that day was still going (so a run that just finished is not "hours
 * behind" since the local midnight). Snapshot, detail and request streams have no position: the
 * last success.
 */
export function lag(
  positionAt: Date | null,
  lastSuccessAt: Date | null,
  now: Date,
  cursor: { dayWindows: boolean; timezone: string },
): Pick<StreamStatus, 'lagSeconds' | 'lagFrom'> {
  const since = (at: Date) => Math.round((now.getTime() - at.getTime()) / 1000);
  if (positionAt && cursor.dayWindows) {
    const dayEnd = wallClockDay(positionAt, cursor.timezone).end;
    const covered = lastSuccessAt && lastSuccessAt < dayEnd ? lastSuccessAt : dayEnd;
    return { lagSeconds: Math.max(0, since(covered)), lagFrom: 'coverage' };
  }
  if (positionAt) return { lagSeconds: since(positionAt), lagFrom: 'cursor' };
  if (lastSuccessAt) return { lagSeconds: since(lastSuccessAt), lagFrom: 'lastSuccess' };
  return { lagSeconds: null, lagFrom: null };
}
