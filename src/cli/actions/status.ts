import { Queue } from 'bullmq';
import type { Pool } from 'pg';
import { DAY_WINDOW_STREAMS } from '../../config/streamDefaults.ts';
import type { StreamName } from '../../config/types.ts';
import { createDatabase } from '../../db/client.ts';
import type { RedisTarget } from '../../redis/connection.ts';
import { type OldestKept, readOldestKept } from '../../retention/oldestKept.ts';
import { cliCommand } from '../../runtime/invocation.ts';
import { wallClockDay } from '../../time/index.ts';
import { createClientRedis } from '../../worker/connections.ts';
import { QUEUE_NAMES } from '../../worker/queues.ts';
import type { CliContext } from '../context.ts';
import { queuePrefixOf } from '../queuePrefix.ts';

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

/** Counts queued sync jobs per `stream:scope`; undefined when Redis cannot be reached quickly. */
export async function readQueueDepths(
  target: RedisTarget,
  prefix: string,
): Promise<Map<string, number> | undefined> {
  const redis = createClientRedis(target);
  redis.on('error', () => {}); // unreachable Redis is reported as 'unavailable', not thrown
  try {
    await Promise.race([
      redis.connect(),
      new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), 1500)),
    ]);
    const queue = new Queue(QUEUE_NAMES.sync, { connection: redis, prefix });
    try {
      const jobs = await queue.getJobs(['waiting', 'delayed', 'active', 'prioritized'], 0, 5000);
      const depths = new Map<string, number>();
      for (const job of jobs) {
        const key = `${job?.data?.stream}:${job?.data?.scope}`;
        depths.set(key, (depths.get(key) ?? 0) + 1);
      }
      return depths;
    } finally {
      await queue.close();
    }
  } catch {
    return undefined;
  } finally {
    redis.disconnect();
  }
}

/** `45s`, `12m`, `5h`, `3d`: a duration as short as a table column needs. */
export function formatDuration(seconds: number): string {
  if (seconds < 120) return `${seconds}s`;
  if (seconds < 7200) return `${Math.round(seconds / 60)}m`;
  if (seconds < 3 * 86_400) return `${Math.round(seconds / 3600)}h`;
  return `${Math.round(seconds / 86_400)}d`;
}

function formatLag(seconds: number | null): string {
  return seconds === null ? 'never' : formatDuration(seconds);
}

/** How long ago an ISO time was, e.g. `4m ago`. */
function ago(iso: string | null, now: Date): string {
  if (!iso) return 'never';
  return `${formatDuration(Math.max(0, Math.round((now.getTime() - Date.parse(iso)) / 1000)))} ago`;
}

/** `11-26 14:05`: a cursor position in UTC, to the minute (the JSON has it exactly). */
function shortUtc(iso: string | null): string {
  return iso ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : '-';
}

/** `98765`, `123k`, `1.2M`: counts of five digits or fewer as they are, larger ones short. */
export function formatCount(n: number): string {
  if (n < 100_000) return String(n);
  if (n < 10_000_000) return n < 1_000_000 ? `${Math.round(n / 1000)}k` : `${(n / 1_000_000).toFixed(1)}M`;
  return `${Math.round(n / 1_000_000)}M`;
}

/** The width `status` keeps to, so it reads in a 100-column terminal or a narrow log viewer. */
export const STATUS_WIDTH = 100;

/** Cuts a line to `width` characters, marking the cut. */
function clip(line: string, width: number): string {
  return line.length <= width ? line : `${line.slice(0, width - 1)}…`;
}

/**
 * The human table of `status`, at most STATUS_WIDTH columns: one line per stream and scope with
 * short times (cursor in UTC to the minute, last success as an age), then a line per last error
 * under the table, cut to the width; `--json` has every value in full.
 */
export function formatStatusTable(
  rows: readonly StreamStatus[],
  redisAvailable: boolean,
  now = new Date(),
): string[] {
  const header = [
    'stream',
    'scope',
    'cursor',
    'success',
    'lag',
    'rows',
    'events',
    'calls',
    'details',
    'queue',
  ];
  const body = rows.map((r) => [
    r.stream,
    r.scope,
    shortUtc(r.cursor),
    ago(r.lastSuccessAt, now),
    formatLag(r.lagSeconds),
    formatCount(r.rows24h),
    formatCount(r.events24h),
    r.callsPerCycle === null ? '-' : formatCount(r.callsPerCycle),
    r.detailsQuarantined > 0
      ? `${formatCount(r.detailsPending)}+${formatCount(r.detailsQuarantined)}q`
      : formatCount(r.detailsPending),
    redisAvailable ? formatCount(r.queueDepth ?? 0) : '?',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) =>
    clip(
      cells
        .map((c, i) => c.padEnd(widths[i]!))
        .join('  ')
        .trimEnd(),
      STATUS_WIDTH,
    );
  if (rows.length === 0)
    return [
      line(header),
      `(no runs yet: start \`${cliCommand('worker')}\` or run \`${cliCommand('sync --once')}\`)`,
    ];
  const notes = [
    // lag: behind what the last successful run covered (see `lag`).
    'cursor: UTC; success: the last one; lag: behind what it covered; rows, events: last 24 h;',
    'calls: per cycle; details: still to fetch (+N quarantined: Nq); --json: every value in full',
    ...(redisAvailable ? [] : ['queue: ? = Redis unavailable']),
  ];
  const errors = rows
    .filter((r) => r.lastError)
    .map((r) =>
      clip(`  ${r.stream} ${r.scope} failed ${ago(r.lastErrorAt, now)}: ${r.lastError}`, STATUS_WIDTH),
    );
  const withheld = rows
    .filter((r) => r.vanishWithheld24h > 0)
    .map((r) =>
      clip(`  ${r.stream} ${r.scope} withheld ${formatCount(r.vanishWithheld24h)} rows`, STATUS_WIDTH),
    );
  return [
    line(header),
    ...body.map(line),
    '',
    ...notes,
    ...(withheld.length > 0
      ? ['', 'withheld vanishes in 24 h (not confirmed; rows kept):', ...withheld]
      : []),
    ...(errors.length > 0 ? ['', 'last errors:', ...errors] : []),
  ];
}

/** The retention part of `status`: the oldest row each bookkeeping table keeps, and for how long it keeps them. */
export function formatRetention(tables: readonly OldestKept[]): string[] {
  const width = Math.max(...tables.map((t) => t.table.length));
  return [
    '',
    `retention (oldest row kept; \`${cliCommand('prune --dry-run')}\` shows what is due):`,
    ...tables.map((t) => {
      const keeps = t.retentionDays > 0 ? `keeps ${t.retentionDays} days` : 'keeps forever';
      return `  ${t.table.padEnd(width)}  ${(t.oldestAt ?? 'empty').padEnd(24)}  ${keeps} (by ${t.column})`;
    }),
  ];
}

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
    const prefix = queuePrefixOf(options.queuePrefix, config);
    const depths = await readQueueDepths(config.redis, prefix);
    for (const row of rows) row.queueDepth = depths ? (depths.get(`${row.stream}:${row.scope}`) ?? 0) : null;
    if (options.json) {
      context.print(
        JSON.stringify({ queues: depths ? 'available' : 'unavailable', streams: rows, retention }),
      );
    } else {
      for (const line of formatStatusTable(rows, depths !== undefined)) context.print(line);
      for (const line of formatRetention(retention)) context.print(line);
    }
    return 0;
  } finally {
    await database.close();
  }
}
