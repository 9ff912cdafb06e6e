import type { StreamName } from '../config/types.ts';

/**
 * The analytics materialized views, in refresh order (a view after those it reads), with what
 * makes each stale: the streams writing its sources, and the views it reads.
 */
export interface MaterializedAnalytics {
  /** schema.name */
  relation: string;
  /** Streams whose writes change its sources. */
  streams: readonly StreamName[];
  /** Analytics views it reads: their refresh makes it stale. */
  reads: readonly string[];
}

export const MATERIALIZED_ANALYTICS: readonly MaterializedAnalytics[] = [
  { relation: 'analytics.shipment_facts', streams: ['shipments', 'orders', 'returns'], reads: [] },
  { relation: 'analytics.carrier_performance_weekly', streams: [], reads: ['analytics.shipment_facts'] },
  { relation: 'analytics.order_lifecycle', streams: ['orders'], reads: ['analytics.shipment_facts'] },
  { relation: 'analytics.return_rate_by_sku', streams: ['shipments', 'returns'], reads: [] },
  { relation: 'analytics.return_rate_by_reason', streams: ['shipments', 'returns'], reads: [] },
  {
    relation: 'analytics.return_rate_by_warehouse',
    streams: ['returns'],
    reads: ['analytics.shipment_facts'],
  },
  { relation: 'analytics.daily_inventory', streams: ['inventory', 'inventory_activity'], reads: [] },
  { relation: 'analytics.stock_out_spells', streams: ['inventory'], reads: [] },
];

/** The views a write by `stream` makes stale directly (those reading them follow on refresh). */
export function viewsChangedBy(stream: StreamName): string[] {
  return MATERIALIZED_ANALYTICS.filter((v) => v.streams.includes(stream)).map((v) => v.relation);
}

/** The views reading `relation`: stale once it is refreshed. */
export function viewsReading(relation: string): string[] {
  return MATERIALIZED_ANALYTICS.filter((v) => v.reads.includes(relation)).map((v) => v.relation);
}
