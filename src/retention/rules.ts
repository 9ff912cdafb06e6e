import type { RetentionSettings } from '../config/types.ts';

/** The bookkeeping tables the pruner keeps bounded, in the order it prunes them. */
export const PRUNED_TABLES = [
  'sync.webhook_deliveries',
  'sync.events',
  'sync.webhook_delivery_states',
  'sync.runs',
  'sync.rejected_records',
  'sync.detail_requests',
  'sync.backfill_windows',
] as const;
export type PrunedTable = (typeof PRUNED_TABLES)[number];

/** The setting that bounds each table: delivery states go with their event, quarantined requests with rejections. */
export const RETENTION_SETTING: Readonly<
  Record<PrunedTable, keyof Omit<RetentionSettings, 'pruneEveryMinutes' | 'batchSize' | 'batchPauseMs'>>
> = {
  'sync.webhook_deliveries': 'deliveriesDays',
  'sync.events': 'eventsDays',
  'sync.webhook_delivery_states': 'eventsDays',
  'sync.runs': 'runsDays',
  'sync.rejected_records': 'rejectedDays',
  'sync.detail_requests': 'rejectedDays',
  'sync.backfill_windows': 'backfillWindowsDays',
};

/** The environment variable of each setting, for messages and the README. */
export const RETENTION_VARIABLE: Readonly<Record<(typeof RETENTION_SETTING)[PrunedTable], string>> = {
  deliveriesDays: 'RETENTION_DELIVERIES_DAYS',
  eventsDays: 'RETENTION_EVENTS_DAYS',
  runsDays: 'RETENTION_RUNS_DAYS',
  rejectedDays: 'RETENTION_REJECTED_DAYS',
  backfillWindowsDays: 'RETENTION_BACKFILL_WINDOWS_DAYS',
};

const DAY_MS = 86_400_000;

/**
 * Pure: the instant before which each table's rows may go (by the column its rule reads), or null
 * where the setting is 0 (kept forever). Rows the rules always keep (a stream's last run, an event
 * still pending delivery) stay whatever the cutoff; see statements.ts.
 */
export function retentionCutoffs(
  settings: RetentionSettings,
  now: Date,
): Readonly<Record<PrunedTable, Date | null>> {
  const cutoff = (days: number) => (days > 0 ? new Date(now.getTime() - days * DAY_MS) : null);
  return Object.fromEntries(
    PRUNED_TABLES.map((table) => [table, cutoff(settings[RETENTION_SETTING[table]])]),
  ) as Record<PrunedTable, Date | null>;
}
