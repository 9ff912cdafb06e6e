import { integer, text } from 'drizzle-orm/pg-core';
import { syncSchema, tz } from './columns.ts';

/**
 * When each analytics materialized view last had its sources change and was last refreshed: the
 * coalescing state of src/analytics/refresh.ts. One row per view, so bounded.
 */
export const analyticsRefreshes = syncSchema.table('analytics_refreshes', {
  relation: text('relation').primaryKey(),
  changedAt: tz('changed_at'),
  refreshedAsOf: tz('refreshed_as_of'),
  lastDurationMs: integer('last_duration_ms'),
  lastError: text('last_error'),
  lastErrorAt: tz('last_error_at'),
});
