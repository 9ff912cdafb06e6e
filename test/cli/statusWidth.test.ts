import { describe, expect, it } from 'vitest';
import { formatStatusTable, STATUS_WIDTH } from '../../src/cli/status/statusTable.ts';
import type { StreamStatus } from '../../src/cli/status/streamStatus.ts';
import { STREAM_NAMES } from '../../src/config/types.ts';

/** `status` reads in a 100-column terminal, whatever its rows hold (it was 147 columns wide). */

const now = new Date('2026-11-26T16:00:00Z');

/** The widest row a deployment shows: long-standing counts, a quarantine, a long error. */
function worstRow(stream: string, scope: string): StreamStatus {
  return {
    stream,
    scope,
    cursor: '2026-11-26T15:55:00.000Z',
    lastSuccessAt: '2026-11-19T15:55:00.000Z',
    lagSeconds: 7 * 86_400,
    lagFrom: 'cursor',
    lastError: `GET Orders/Detail/{accountNumber}/{orderNumber}: HTTP 503: ${'Service Unavailable '.repeat(10)}`,
    lastErrorAt: '2026-11-26T15:59:00.000Z',
    rows24h: 1_234_567,
    events24h: 987_654,
    callsPerCycle: 12_345,
    detailsPending: 4_500,
    detailsQuarantined: 123,
    vanishWithheld24h: 12_345_678,
    queueDepth: 1_000,
  };
}

describe('status table width', () => {
  it(`keeps every line within ${STATUS_WIDTH} columns, Redis there or not`, () => {
    const rows = STREAM_NAMES.flatMap((stream) =>
      ['ACC100', 'SUP-4711-EU'].map((scope) => worstRow(stream, scope)),
    );
    for (const redis of [true, false]) {
      const lines = formatStatusTable(rows, redis, now);
      expect(lines.length).toBeGreaterThan(rows.length * 2);
      for (const line of lines) expect(line.length, line).toBeLessThanOrEqual(STATUS_WIDTH);
    }
  });

  it('keeps what a reader needs on the row: stream, scope, cursor, last success, lag, counts', () => {
    const [header, row] = formatStatusTable([worstRow('inventory_activity', 'ACC100')], true, now);
    expect(header).toMatch(/^stream +scope +cursor +success +lag +rows +events +calls +details +queue$/);
    expect(row).toMatch(
      /^inventory_activity +ACC100 +11-26 15:55 +7d ago +7d +1\.2M +988k +12345 +4500\+123q +1000$/,
    );
  });

  it('lists last errors under the table, cut at the width with a mark', () => {
    const lines = formatStatusTable([worstRow('orders', 'ACC100')], true, now);
    const error = lines.at(-1)!;
    expect(lines.at(-2)).toBe('last errors:');
    expect(error.startsWith('  orders ACC100 failed 60s ago: GET Orders/Detail/')).toBe(true);
    expect(error).toHaveLength(STATUS_WIDTH);
    expect(error.endsWith('…')).toBe(true);
  });
});
