import { getTableConfig } from 'drizzle-orm/pg-core';
import type { Queryable } from '../../db/queryable.ts';
import { orderLifecycle } from '../../db/schema/analytics/orderLifecycle.ts';
import { applyChangedRows } from './changedRows.ts';
import { type AnalyticsModel, type Batch, IN_BATCH, QUEUED } from './model.ts';

/**
 * analytics.order_lifecycle: a row per synced order, from its detail, its holds and its shipments'
 * facts. Queued keys are `{account, order}`: the order, its holds or one of its facts changed.
 */

const RELATION = 'analytics.order_lifecycle';

/** The lifecycle of the orders of `scope` (SQL selecting account_number, order_number). */
const lifecyclesOf = (scope: string) => `
    WITH scope AS MATERIALIZED (${scope})
    SELECT o.account_number, o.order_number, o.warehouse_code, o.warehouse_name, o.order_type_code,
           o.requested_service_level, o.order_status_code,
           coalesce(o.received_date, o.creation_date) AS received_at,
           coalesce(f.shipped_at, o.shipped_date) AS shipped_at,
           f.delivered_at,
           f.shipments,
           h.holds,
           round((extract(epoch FROM coalesce(f.shipped_at, o.shipped_date) - coalesce(o.received_date, o.creation_date))
                  / 3600)::numeric, 2) AS hours_to_ship,
           round((extract(epoch FROM f.delivered_at - coalesce(f.shipped_at, o.shipped_date)) / 86400)::numeric, 2)
             AS days_in_transit,
           round((extract(epoch FROM f.delivered_at - coalesce(o.received_date, o.creation_date)) / 86400)::numeric, 2)
             AS days_to_deliver
      FROM fulfillment.orders o
      JOIN scope t ON t.account_number = o.account_number AND t.order_number = o.order_number
      -- Per order, by index: a grouped subquery joined back would be compared with every order.
      CROSS JOIN LATERAL (
        SELECT count(*)::integer AS shipments, min(x.ship_date) AS shipped_at,
               CASE WHEN bool_and(x.is_delivered) THEN max(x.delivered_at) END AS delivered_at
          FROM analytics.shipment_facts x
         WHERE x.account_number = o.account_number AND x.order_number = o.order_number) f
      CROSS JOIN LATERAL (
        SELECT count(*)::integer AS holds FROM fulfillment.order_holds y
         WHERE y.account_number = o.account_number AND y.order_number = o.order_number) h`;

const TOUCHED = `SELECT DISTINCT q.key[1] AS account_number, q.key[2] AS order_number FROM ${QUEUED} WHERE ${IN_BATCH}`;

function apply(db: Queryable, batch: Batch | null): Promise<void> {
  return applyChangedRows(db, batch, {
    touched: TOUCHED,
    table: RELATION,
    key: ['account_number', 'order_number'],
    columns: getTableConfig(orderLifecycle).columns.map((c) => c.name),
    fresh: lifecyclesOf('SELECT account_number, order_number FROM touched'),
    stale: `SELECT l.* FROM ${RELATION} l
              JOIN touched t ON t.account_number = l.account_number AND t.order_number = l.order_number`,
    finish: 'SELECT count(*) FROM changed',
  });
}

async function rebuild(db: Queryable): Promise<void> {
  await db.query('DELETE FROM analytics.order_lifecycle');
  await db.query(
    `INSERT INTO analytics.order_lifecycle ${lifecyclesOf('SELECT account_number, order_number FROM fulfillment.orders')}`,
  );
}

export const orderLifecycleModel: AnalyticsModel = { relation: RELATION, apply, rebuild };
