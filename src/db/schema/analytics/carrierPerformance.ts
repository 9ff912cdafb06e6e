import { date, integer, primaryKey, text } from 'drizzle-orm/pg-core';
import { analyticsSchema, num } from '../columns.ts';

/**
 * Carrier performance per Pacific week (weeks start on Monday) of ship date, over every account:
 * volume, delivery, exceptions, transit-time percentiles. A table the worker keeps from
 * analytics.shipment_facts (src/analytics/models/carrierWeekly.ts): only the weeks whose shipments
 * changed are recomputed (medians do not add up, so a week is recomputed whole).
 */
export const carrierPerformanceWeekly = analyticsSchema.table(
  'carrier_performance_weekly',
  {
    weekStart: date('week_start', { mode: 'string' }).notNull(),
    carrierName: text('carrier_name').notNull(),
    shipments: integer('shipments'),
    units: integer('units'),
    delivered: integer('delivered'),
    hadException: integer('had_exception'),
    returnedToSender: integer('returned_to_sender'),
    avgTransitDays: num('avg_transit_days'),
    medianTransitDays: num('median_transit_days'),
    p90TransitDays: num('p90_transit_days'),
    exceptionRate: num('exception_rate'),
  },
  (t) => [primaryKey({ name: 'carrier_performance_weekly_pk', columns: [t.weekStart, t.carrierName] })],
);
