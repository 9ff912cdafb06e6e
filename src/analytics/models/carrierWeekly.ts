import type { Queryable } from '../../db/queryable.ts';
import { type AnalyticsModel, type Batch, IN_BATCH, QUEUED } from './model.ts';

/**
 * analytics.carrier_performance_weekly: per Pacific week (from Monday) and carrier, from
 * analytics.shipment_facts. Queued keys are `{week_start}`: a fact of that week changed. A week is
 * recomputed whole (medians and percentiles do not add up).
 */

const RELATION = 'analytics.carrier_performance_weekly';

/** The rows of the weeks of `weeks` (SQL selecting week_start). */
const weeksOf = (weeks: string) => `
    SELECT date_trunc('week', f.ship_day)::date AS week_start, coalesce(f.carrier_name, '') AS carrier_name,
           count(*)::integer AS shipments,
           sum(f.units)::integer AS units,
           (count(*) FILTER (WHERE f.is_delivered))::integer AS delivered,
           (count(*) FILTER (WHERE f.had_exception))::integer AS had_exception,
           (count(*) FILTER (WHERE f.is_returned_to_sender))::integer AS returned_to_sender,
           round(avg(f.transit_days), 2) AS avg_transit_days,
           round((percentile_cont(0.5) WITHIN GROUP (ORDER BY f.transit_days))::numeric, 2) AS median_transit_days,
           round((percentile_cont(0.9) WITHIN GROUP (ORDER BY f.transit_days))::numeric, 2) AS p90_transit_days,
           round((count(*) FILTER (WHERE f.had_exception))::numeric / count(*), 4) AS exception_rate
      FROM (${weeks}) w
      -- A week at a time, by the ship_day index, however few weeks the planner expects.
      CROSS JOIN LATERAL (
        SELECT * FROM analytics.shipment_facts x WHERE x.ship_day >= w.week_start AND x.ship_day < w.week_start + 7) f
     GROUP BY 1, 2`;

const TOUCHED = `SELECT DISTINCT q.key[1]::date AS week_start FROM ${QUEUED} WHERE ${IN_BATCH}`;

async function apply(db: Queryable, batch: Batch | null): Promise<void> {
  if (!batch) return;
  const params = [batch.relation, batch.maxId];
  await db.query(
    `DELETE FROM analytics.carrier_performance_weekly c USING (${TOUCHED}) t WHERE c.week_start = t.week_start`,
    params,
  );
  await db.query(`INSERT INTO analytics.carrier_performance_weekly ${weeksOf(TOUCHED)}`, params);
}

async function rebuild(db: Queryable): Promise<void> {
  await db.query('DELETE FROM analytics.carrier_performance_weekly');
  await db.query(
    `INSERT INTO analytics.carrier_performance_weekly ${weeksOf(
      `SELECT DISTINCT date_trunc('week', ship_day)::date AS week_start
         FROM analytics.shipment_facts WHERE ship_day IS NOT NULL`,
    )}`,
  );
}

export const carrierWeeklyModel: AnalyticsModel = { relation: RELATION, apply, rebuild };
