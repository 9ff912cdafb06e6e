import type { Queryable } from '../db/queryable.ts';
import { MAINTAINED, REFRESH_INTERVAL_MS } from './views.ts';

/** Where one kept analytics table stands: how old what it shows is, and whether a refresh is owed. */
export interface ViewRefreshState {
  relation: string;
  /** Its refresh interval (a refresh comes this long after the previous one ended). */
  intervalMs: number;
  /** The moment its last refresh shows (every change committed before it is in); null before the first. */
  refreshedAsOf: Date | null;
  /** Changes to it are queued (sync.analytics_changes): a refresh is owed. */
  pending: boolean;
  lastError: string | null;
  lastErrorAt: Date | null;
}

/**
 * Every kept analytics table's refresh state, in refresh order, from sync.analytics_refreshes (one
 * row per table) and its queue of changes (one index probe each). A table without a row has never
 * been refreshed.
 */
export async function readViewRefreshStates(db: Queryable): Promise<ViewRefreshState[]> {
  const { rows } = await db.query<{
    relation: string;
    refreshed_as_of: Date | null;
    pending: boolean;
    last_error: string | null;
    last_error_at: Date | null;
  }>(
    `SELECT k.relation, r.refreshed_as_of, r.last_error, r.last_error_at,
            EXISTS (SELECT 1 FROM sync.analytics_changes c WHERE c.relation = k.relation) AS pending
       FROM unnest($1::text[]) AS k(relation)
       LEFT JOIN sync.analytics_refreshes r ON r.relation = k.relation`,
    [MAINTAINED],
  );
  const byRelation = new Map(rows.map((r) => [r.relation, r]));
  return MAINTAINED.map((relation) => {
    const row = byRelation.get(relation);
    return {
      relation,
      intervalMs: REFRESH_INTERVAL_MS,
      refreshedAsOf: row?.refreshed_as_of ?? null,
      pending: row?.pending ?? false,
      lastError: row?.last_error ?? null,
      lastErrorAt: row?.last_error_at ?? null,
    };
  });
}
