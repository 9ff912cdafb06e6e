import { sql } from 'drizzle-orm';
import { bigserial, date, index, integer, text } from 'drizzle-orm/pg-core';
import { syncSchema, tz } from './columns.ts';

/**
 * Per table of schema analytics the worker keeps (src/analytics/views.ts): how far its last
 * refresh brought it. One row per table, so bounded. Readers see the safe part through
 * analytics.freshness.
 */
export const analyticsRefreshes = syncSchema.table('analytics_refreshes', {
  relation: text('relation').primaryKey(),
  changedAt: tz('changed_at'),
  refreshedAsOf: tz('refreshed_as_of'),
  sourceDataAsOf: tz('source_data_as_of'),
  lastRefreshAt: tz('last_refresh_at'),
  lastDurationMs: integer('last_duration_ms'),
  lastChanges: integer('last_changes'),
  pendingChanges: integer('pending_changes'),
  lastRebuildAt: tz('last_rebuild_at'),
  lastError: text('last_error'),
  lastErrorAt: tz('last_error_at'),
});

/**
 * What the analytics tables still have to take in: a row per source row a statement changed (for
 * each table it feeds), written by triggers on the synced tables in the writer's transaction, and
 * by a refresh for the tables reading the one it refreshed. The refresh that applies a row deletes
 * it in the same transaction, so a row is never lost and never applied twice by halves. Drained
 * by the refresher; a backlog past a bound is folded into one rebuild request.
 */
export const analyticsChanges = syncSchema.table(
  'analytics_changes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    relation: text('relation').notNull(),
    key: text('key').array(),
    fromAt: tz('from_at'),
    queuedAt: tz('queued_at').notNull().defaultNow(),
  },
  (t) => [
    index('analytics_changes_relation_idx').on(t.relation, t.id),
    // Rebuild requests (a null key): found without reading a backlog of changes.
    index('analytics_changes_rebuild_idx').on(t.relation).where(sql`${t.key} is null`),
  ],
);

/**
 * Per supplier, the first day analytics.daily_inventory reconstructs from (its earliest inventory
 * activity) as of the last refresh: when the history read reaches further back, every row of the
 * supplier is reconstructed again. One row per supplier.
 */
export const analyticsInventoryCoverage = syncSchema.table('analytics_inventory_coverage', {
  supplierId: text('supplier_id').primaryKey(),
  firstDay: date('first_day', { mode: 'string' }),
});
