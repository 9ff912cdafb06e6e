import type { RetentionSettings } from '../config/types.ts';
import type { Queryable } from '../db/queryable.ts';
import { type PrunedTable, RETENTION_SETTING } from './rules.ts';
import { AGE_COLUMN, oldestSql } from './statements.ts';

/** One line of `status`'s retention part: the oldest row a bookkeeping table holds now. */
export interface OldestKept {
  table: PrunedTable;
  /** By the column its rule reads (detail requests: the oldest quarantine); null: none. */
  oldestAt: string | null;
  column: string;
  /** Its retention in days; 0: kept forever. */
  retentionDays: number;
}

/** Tables `status` reports on; delivery states are pruned with their events, so they are not listed. */
const REPORTED: readonly PrunedTable[] = [
  'sync.runs',
  'sync.events',
  'sync.webhook_deliveries',
  'sync.rejected_records',
  'sync.detail_requests',
  'sync.backfill_windows',
];

/** Reads the oldest row of each pruned table (each a min() over the index its pruner walks). */
export async function readOldestKept(db: Queryable, settings: RetentionSettings): Promise<OldestKept[]> {
  return Promise.all(
    REPORTED.map(async (table) => {
      const { rows } = await db.query<{ oldest: Date | null }>(oldestSql(table));
      return {
        table,
        oldestAt: rows[0]?.oldest?.toISOString() ?? null,
        column: AGE_COLUMN[table],
        retentionDays: settings[RETENTION_SETTING[table]],
      };
    }),
  );
}
