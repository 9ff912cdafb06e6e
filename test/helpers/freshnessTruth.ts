import type { Pool } from 'pg';
import { ANALYTICS_RELATIONS } from '../../src/analytics/views.ts';
import { DAY_WINDOW_STREAMS } from '../../src/config/streamDefaults.ts';
import type { StreamName } from '../../src/config/types.ts';
import { wallClockDay } from '../../src/time/days.ts';

/** What analytics.freshness must say of a relation, from the cursors alone. */
export interface ExpectedFreshness {
  relation: string;
  /** Whether it follows kept tables (else it reads synced tables only, and is as of now). */
  kept: boolean;
  /** Epoch ms, or null while a stream it reads has a scope that never stored anything. */
  sourceDataAsOf: number | null;
}

/**
 * Per relation of src/analytics/views.ts (in name order), the upstream time its data is complete
 * up to, worked out here from sync.cursors as `fulfillment-sync status` reads them (a minute-window
 * stream up to its cursor; a day-window one up to its last success within the cursor's day;
 * others up to their last success), the least over every stream and scope it reads, directly or
 * through the kept tables it follows. Valid while no sync ran after the last refresh.
 */
export async function expectedFreshness(pool: Pool): Promise<ExpectedFreshness[]> {
  const { rows } = await pool.query<{
    stream: StreamName;
    position_at: Date | null;
    last_success_at: Date | null;
  }>('SELECT stream, position_at, last_success_at FROM sync.cursors');
  const coverage = (stream: StreamName): number | null => {
    const scopes = rows.filter((r) => r.stream === stream);
    if (scopes.length === 0) return null;
    const each = scopes.map((c) => {
      if (c.position_at && DAY_WINDOW_STREAMS.includes(stream)) {
        const end = wallClockDay(c.position_at, 'America/Los_Angeles').end.getTime();
        return c.last_success_at ? Math.min(c.last_success_at.getTime(), end) : end;
      }
      return (c.position_at ?? c.last_success_at)?.getTime() ?? null;
    });
    return each.some((v) => v === null) ? null : Math.min(...(each as number[]));
  };
  const asOf = (relation: string): number | null => {
    const entry = ANALYTICS_RELATIONS.find((r) => r.relation === relation)!;
    const values = [...entry.streams.map(coverage), ...entry.models.map(asOf)];
    return values.some((v) => v === null) ? null : Math.min(...(values as number[]));
  };
  return ANALYTICS_RELATIONS.map((r) => ({
    relation: r.relation,
    kept: r.kind === 'maintained' || r.models.length > 0,
    sourceDataAsOf: asOf(r.relation),
  })).sort((a, b) => (a.relation < b.relation ? -1 : 1));
}
