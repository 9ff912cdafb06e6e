import type { Queryable } from '../db/queryable.ts';
import { DEFAULT_REFRESH_INTERVAL_MS, MATERIALIZED_ANALYTICS } from './views.ts';

/** Where one analytics view stands: how old what it shows is, and whether a refresh is owed. */
export interface ViewRefreshState {
  relation: string;
  /** Its minimum refresh interval (a stale view is refreshed at most this often). */
  intervalMs: number;
  /** The moment its last refresh shows (every change committed before it is in); null before the first. */
  refreshedAsOf: Date | null;
  /** Its sources changed after that moment: a refresh is owed. */
  pending: boolean;
  lastError: string | null;
  lastErrorAt: Date | null;
}

/**
 * Every analytics view's refresh state, in refresh order, from sync.analytics_refreshes (one row per
 * view). A view without a row has never been marked nor refreshed. "Pending" is the test the
 * refresher itself makes (src/analytics/refresh.ts): changed at or after the last refresh's moment.
 */
export async function readViewRefreshStates(db: Queryable): Promise<ViewRefreshState[]> {
  const { rows } = await db.query<{
    relation: string;
    refreshed_as_of: Date | null;
    pending: boolean;
    last_error: string | null;
    last_error_at: Date | null;
  }>(
    `SELECT relation, refreshed_as_of, last_error, last_error_at,
            changed_at IS NOT NULL AND (refreshed_as_of IS NULL OR changed_at >= refreshed_as_of) AS pending
       FROM sync.analytics_refreshes`,
  );
  const byRelation = new Map(rows.map((r) => [r.relation, r]));
  return MATERIALIZED_ANALYTICS.map(({ relation, minIntervalMs }) => {
    const row = byRelation.get(relation);
    return {
      relation,
      intervalMs: minIntervalMs ?? DEFAULT_REFRESH_INTERVAL_MS,
      refreshedAsOf: row?.refreshed_as_of ?? null,
      pending: row?.pending ?? false,
      lastError: row?.last_error ?? null,
      lastErrorAt: row?.last_error_at ?? null,
    };
  });
}
