import type { StreamName } from '../config/types.ts';

/**
 * The relations of schema `analytics`, what each reads and how it is kept fresh: the catalogue the
 * refresher, the freshness view (analytics.freshness) and the reader's grants build on.
 *
 * `maintained`: a table the worker keeps (src/analytics/models/): a change to its sources queues
 * the keys it touches (triggers, sync.analytics_changes) and a refresh recomputes only those.
 * `derived`: a plain view (or a table kept by another's refresh), as fresh as the maintained tables
 * it follows (`models`) and the synced tables it reads directly (`streams`, as of their last sync).
 */
export interface AnalyticsRelation {
  /** schema.name */
  relation: string;
  kind: 'maintained' | 'derived';
  /** Maintained tables whose refresh it follows (for a maintained one: those its refresh reads). */
  models: readonly string[];
  /** Streams writing the synced tables it reads. */
  streams: readonly StreamName[];
}

const maintained = (relation: string, streams: StreamName[], models: string[] = []) =>
  ({ relation, kind: 'maintained', models, streams }) as const satisfies AnalyticsRelation;
const derived = (relation: string, streams: StreamName[], models: string[] = []) =>
  ({ relation, kind: 'derived', models, streams }) as const satisfies AnalyticsRelation;

/**
 * A maintained table is refreshed at most this long after its last refresh ended: a refresh takes
 * in only what changed, so a minute costs little, and readers see it in analytics.freshness.
 */
export const REFRESH_INTERVAL_MS = 60_000;

const FACTS = 'analytics.shipment_facts';
const SHIPPED = 'analytics.shipped_units_daily';

/** Every relation of schema `analytics` but analytics.freshness itself; maintained ones in refresh order. */
export const ANALYTICS_RELATIONS: readonly AnalyticsRelation[] = [
  maintained(FACTS, ['shipments', 'orders', 'returns']),
  maintained('analytics.order_lifecycle', ['orders'], [FACTS]),
  maintained('analytics.carrier_performance_weekly', [], [FACTS]),
  // One model keeps both: the month follows the day by difference, in the same transaction.
  maintained(SHIPPED, [], [FACTS]),
  derived('analytics.shipped_units_monthly', [], [SHIPPED]),
  maintained('analytics.daily_inventory', ['inventory', 'inventory_activity']),
  maintained('analytics.stock_out_spells', ['inventory']),
  derived('analytics.return_rate_by_sku', ['returns'], [SHIPPED]),
  derived('analytics.return_rate_by_reason', ['returns'], [SHIPPED]),
  derived('analytics.return_rate_by_warehouse', ['returns'], [SHIPPED]),
  derived('analytics.return_rate_monthly', ['returns'], [SHIPPED]),
  derived('analytics.days_of_cover', ['inventory', 'inventory_activity']),
  derived('analytics.products', ['products', 'inventory']),
  derived('analytics.open_transfers_in', ['transfers_in']),
];

/** The maintained tables, in refresh order (a table after those it reads). */
export const MAINTAINED: readonly string[] = ANALYTICS_RELATIONS.filter((r) => r.kind === 'maintained').map(
  (r) => r.relation,
);

/** The catalogue entry of `relation`; throws for a relation that is not in schema analytics. */
export function analyticsRelation(relation: string): AnalyticsRelation {
  const found = ANALYTICS_RELATIONS.find((r) => r.relation === relation);
  if (!found) throw new Error(`${relation} is not an analytics relation`);
  return found;
}
