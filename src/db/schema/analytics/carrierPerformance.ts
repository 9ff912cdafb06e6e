import { date, integer, text } from 'drizzle-orm/pg-core';
import { analyticsSchema, num } from '../columns.ts';

/** The query of the view below (it reads analytics.shipment_facts). */
export const CARRIER_PERFORMANCE_WEEKLY_QUERY = `
    SELECT date_trunc('week', f.ship_day)::date AS week_start, coalesce(f.carrier_name, '') AS carrier_name,
           count(*)::integer AS shipments,
           sum(f.units)::integer AS units,
           (count(*) FILTER (WHERE f.is_delivered))::integer AS delivered,
           (count(*) FILTER (WHERE f.had_exception))::integer AS had_exception,
           (count(*) FILTER (WHERE f.is_returned_to_sender))::integer AS returned_to_sender,
           round(avg(f.transit_days), 2) AS avg_transit_days,
           round((percentile_cont(0.5) WITHIN GROUP (ORDER BY f.transit_days))::numeric, 2) AS median_transit_days,
           round((percentile_cont(0.9) WITHIN GROUP (ORDER BY f.transit_days))::numeric, 2) AS p90_transit_days,
           (count(*) FILTER (WHERE f.sla_date IS NOT NULL))::integer AS with_sla_date,
           (count(*) FILTER (WHERE f.delivered_after_sla))::integer AS delivered_after_sla,
           round((count(*) FILTER (WHERE f.had_exception))::numeric / count(*), 4) AS exception_rate
      FROM analytics.shipment_facts f
     WHERE f.ship_day IS NOT NULL
     GROUP BY 1, 2`;

/**
 * Carrier performance per Pacific week (weeks start on Monday) of ship date, over every account:
 * volume, delivery, exceptions, transit-time percentiles, SLA misses. Materialized from
 * analytics.shipment_facts (medians do not add up, so they cannot be a view over weekly sums).
 *
 * Declared `existing`: drizzle-kit creates views in name order, which would put this one before
 * analytics.shipment_facts, which it reads; migrations/0018_analytics_views.sql creates it from
 * the query above (test/analytics/refresh.test.ts checks that the two agree).
 */
export const carrierPerformanceWeekly = analyticsSchema
  .materializedView('carrier_performance_weekly', {
    weekStart: date('week_start', { mode: 'string' }),
    carrierName: text('carrier_name'),
    shipments: integer('shipments'),
    units: integer('units'),
    delivered: integer('delivered'),
    hadException: integer('had_exception'),
    returnedToSender: integer('returned_to_sender'),
    avgTransitDays: num('avg_transit_days'),
    medianTransitDays: num('median_transit_days'),
    p90TransitDays: num('p90_transit_days'),
    withSlaDate: integer('with_sla_date'),
    deliveredAfterSla: integer('delivered_after_sla'),
    exceptionRate: num('exception_rate'),
  })
  .existing();
