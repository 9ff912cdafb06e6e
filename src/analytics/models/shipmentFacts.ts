import { getTableConfig } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/queryable.ts';
import { shipmentFacts } from '../../db/schema/analytics/shipmentFacts.ts';
import { applyChangedRows, differIn } from './changedRows.ts';
import { type AnalyticsModel, type Batch, IN_BATCH, QUEUED, requestRebuild } from './model.ts';

/**
 * analytics.shipment_facts: a row per shipment from its header, scans, lines, order detail,
 * ship-to region and returns. Queued keys are containers (`{container, id}`: its header, lines or
 * scans changed) or orders (`{order, account, order}`: the order, its ship-to address or a return
 * naming it changed), which stand for the order's shipments.
 */

const RELATION = 'analytics.shipment_facts';

/** The columns of a fact, computed for the shipments of `scope` (SQL selecting container_id). */
const factsOf = (scope: string) => `
    SELECT s.container_id, s.account_number, s.order_number, o.warehouse_code, o.warehouse_name,
           s.carrier_name, s.tracking_number, s.status_code,
           o.requested_service_level, o.planned_service_level, o.sla_status_code, o.sla_status_name, o.sla_date,
           o.creation_date AS order_created_at,
           s.ship_date, (s.ship_date AT TIME ZONE 'America/Los_Angeles')::date AS ship_day,
           ev.first_scan_at, ev.last_scan_at, d.delivered_at,
           round((extract(epoch FROM d.delivered_at - s.ship_date) / 86400)::numeric, 2) AS transit_days,
           s.status_code = 'DELIVERED' AS is_delivered,
           s.status_code = 'EXCEPTION' AS is_exception,
           (s.status_code IN ('EXCEPTION', 'RETURNED') OR coalesce(ev.exception_scans, 0) > 0) AS had_exception,
           s.status_code = 'RETURNED' AS is_returned_to_sender,
           EXISTS (SELECT 1 FROM fulfillment.returns r
                    WHERE r.account_number = s.account_number AND r.order_number = s.order_number) AS has_return,
           s.ship_date > o.sla_date AS shipped_after_sla,
           coalesce(l.units, 0)::integer AS units,
           a.city AS ship_to_city, a.state_code AS ship_to_state_code, a.postal_code AS ship_to_postal_code,
           a.country_code AS ship_to_country_code
      FROM fulfillment.shipments s
      JOIN (${scope}) scope ON scope.container_id = s.container_id
      LEFT JOIN fulfillment.orders o
        ON o.account_number = s.account_number AND o.order_number = s.order_number
      LEFT JOIN fulfillment.order_addresses a
        ON a.account_number = s.account_number AND a.order_number = s.order_number
       AND a.role = 'ship_to' AND a.position = 0
      LEFT JOIN LATERAL (
        SELECT min(e.event_time) AS first_scan_at, max(e.event_time) AS last_scan_at,
               count(*) FILTER (WHERE e.description ~* 'exception|refused') AS exception_scans
          FROM fulfillment.shipment_events e
         WHERE e.container_id = s.container_id) ev ON true
      CROSS JOIN LATERAL (
        SELECT CASE WHEN s.status_code = 'DELIVERED' THEN ev.last_scan_at END AS delivered_at) d
      LEFT JOIN LATERAL (
        SELECT sum(x.quantity) AS units FROM fulfillment.shipment_lines x
         WHERE x.container_id = s.container_id) l ON true`;

/**
 * The shipments a batch touches: queued containers (`lines`: their lines changed), and the
 * shipments of queued orders.
 */
const TOUCHED = `
    SELECT container_id, bool_or(lines) AS lines FROM (
      SELECT q.key[2] AS container_id, coalesce(q.key[3] = 'lines', false) AS lines
        FROM ${QUEUED} WHERE ${IN_BATCH} AND q.key[1] = 'container'
      UNION ALL
      SELECT s.container_id, false FROM ${QUEUED}
        JOIN fulfillment.shipments s ON s.order_number = q.key[3] AND s.account_number = q.key[2]
       WHERE ${IN_BATCH} AND q.key[1] = 'order') t
     GROUP BY container_id`;

const COLUMNS = getTableConfig(shipmentFacts).columns.map((c) => c.name);

/** What each table reading the facts reads of them: a change there is passed on to it. */
const LIFECYCLE = ['account_number', 'order_number', 'ship_date', 'is_delivered', 'delivered_at'];
const WEEKLY = [
  'ship_day',
  'carrier_name',
  'units',
  'is_delivered',
  'had_exception',
  'is_returned_to_sender',
  'transit_days',
];
const SHIPPED = ['account_number', 'ship_day', 'warehouse_code', 'units'];

/** The keys a changed pair feeds, from its new row (`n`) and its old one (`o`). */
const feedsOf = (side: 'n' | 'o') => `
      SELECT 'analytics.order_lifecycle', ARRAY[(${side}).account_number, (${side}).order_number]
        FROM changed WHERE ${differIn(LIFECYCLE)}
         AND (${side}).account_number IS NOT NULL AND (${side}).order_number IS NOT NULL
      UNION
      SELECT 'analytics.carrier_performance_weekly', ARRAY[date_trunc('week', (${side}).ship_day)::date::text]
        FROM changed WHERE ${differIn(WEEKLY)} AND (${side}).ship_day IS NOT NULL
      UNION
      SELECT 'analytics.shipped_units_daily', ARRAY[(${side}).account_number, (${side}).ship_day::text]
        FROM changed WHERE ${differIn(SHIPPED)}
         AND (${side}).account_number IS NOT NULL AND (${side}).ship_day IS NOT NULL`;

/** A shipment whose lines changed may ship other SKUs in the same units: its day is recomputed. */
const LINES_FED = (rows: string) => `
      SELECT 'analytics.shipped_units_daily', ARRAY[r.account_number, r.ship_day::text]
        FROM ${rows} r JOIN touched t ON t.container_id = r.container_id
       WHERE t.lines AND r.account_number IS NOT NULL AND r.ship_day IS NOT NULL`;

function apply(db: Queryable, batch: Batch | null): Promise<void> {
  return applyChangedRows(db, batch, {
    touched: TOUCHED,
    table: RELATION,
    key: ['container_id'],
    columns: COLUMNS,
    fresh: factsOf('SELECT container_id FROM touched'),
    stale: `SELECT f.* FROM ${RELATION} f JOIN touched t ON t.container_id = f.container_id`,
    finish: `INSERT INTO sync.analytics_changes (relation, key)
     ${feedsOf('n')} UNION ${feedsOf('o')} UNION ${LINES_FED('fresh')} UNION ${LINES_FED('stale')}`,
  });
}

const DEPENDENTS = [
  'analytics.order_lifecycle',
  'analytics.carrier_performance_weekly',
  'analytics.shipped_units_daily',
];

async function rebuild(db: Queryable): Promise<void> {
  await db.query('DELETE FROM analytics.shipment_facts');
  await db.query(
    `INSERT INTO analytics.shipment_facts ${factsOf('SELECT container_id FROM fulfillment.shipments')}`,
  );
  await requestRebuild(db, DEPENDENTS);
}

export const shipmentFactsModel: AnalyticsModel = { relation: RELATION, apply, rebuild };
