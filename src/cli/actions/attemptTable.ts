import type { AttemptEntry } from '../../webhooks/views/attemptLog.ts';

/**
 * How `webhooks attempts` shows attempts: a table, one row per attempt (its id is what `webhooks
 * resend` takes), each answer's body on a line of its own under the row; or JSON. Pure.
 */

const HEADER = ['id', 'attempted', 'endpoint', 'event', '#', 'status', 'http', 'ms', 'detail'];

/** The human table of attempts, newest first; empty when there are none. */
export function attemptTable(entries: readonly AttemptEntry[]): string[] {
  if (entries.length === 0) return [];
  const rows = entries.map(attemptCells);
  const widths = HEADER.map((title, i) =>
    Math.max(title.length, ...rows.map((cells) => cells[i]?.length ?? 0)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [
    line(HEADER),
    ...entries.flatMap((entry, i) => {
      const body = bodyLine(entry);
      return body ? [line(rows[i] ?? []), body] : [line(rows[i] ?? [])];
    }),
  ];
}

function attemptCells(entry: AttemptEntry): string[] {
  const detail = [
    entry.error && entry.status !== 'succeeded' ? entry.error : '',
    entry.nextAttemptAt ? `next ${entry.nextAttemptAt.toISOString()}` : '',
    entry.series ? `[${entry.series}]` : '',
  ].filter(Boolean);
  return [
    String(entry.id),
    entry.attemptedAt?.toISOString() ?? '-',
    entry.endpointId,
    entry.eventId,
    String(entry.attempt),
    entry.status,
    entry.responseCode === null ? '-' : String(entry.responseCode),
    entry.durationMs === null ? '-' : String(entry.durationMs),
    detail.join('  '),
  ];
}

/** The answer's body under its row, on one line: control characters escaped, `…` where it goes on. */
function bodyLine(entry: AttemptEntry): string | undefined {
  if (!entry.responseBody) return undefined;
  return `    body: ${oneLine(entry.responseBody)}${entry.responseBodyTruncated ? '…' : ''}`;
}

/** A text on one line: newlines, tabs and other control characters as escapes (\n, \t, \u0007). */
export function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  return text.replace(/[\u0000-\u001f\u007f]/g, (char) => {
    const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    return named[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
  });
}

/** An attempt for `--json`: dates as ISO strings, the body's first 1 KB as text. */
export function attemptView(entry: AttemptEntry): Record<string, unknown> {
  return {
    ...entry,
    attemptedAt: entry.attemptedAt?.toISOString() ?? null,
    nextAttemptAt: entry.nextAttemptAt?.toISOString() ?? null,
  };
}
