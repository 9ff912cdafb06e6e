import type { OldestKept } from '../../retention/oldestKept.ts';
import { cliCommand } from '../../runtime/invocation.ts';
import type { StreamStatus } from './streamStatus.ts';

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
