import type { Queryable } from '../../db/queryable.ts';
import { type AnalyticsModel, type Batch, IN_BATCH, QUEUED } from './model.ts';

/**
 * analytics.shipped_units_daily, and with it analytics.shipped_units_monthly: units and shipments
 * per account, warehouse, SKU and Pacific ship day (month), from the facts' shipment lines.
 * Queued keys are `{account, ship_day}`: a fact of that account and day changed. The day is
 * recomputed and only its rows that differ are written; the month follows by their difference, in
 * the same statement, so it never reads a year of lines.
 */

const RELATION = 'analytics.shipped_units_daily';

/** The daily rows of the (account, day) pairs of `days` (SQL selecting account_number, ship_day). */
const daysOf = (days: string) => `
    SELECT f.account_number, f.ship_day, coalesce(f.warehouse_code, '') AS warehouse_code,
           coalesce(l.sku, '') AS sku, count(DISTINCT f.container_id)::integer AS shipments,
           coalesce(sum(l.quantity), 0)::integer AS units
      FROM (${days}) d
      JOIN analytics.shipment_facts f ON f.account_number = d.account_number AND f.ship_day = d.ship_day
      JOIN fulfillment.shipment_lines l ON l.container_id = f.container_id
     GROUP BY 1, 2, 3, 4`;

const COLUMNS = 'account_number, ship_day, warehouse_code, sku, shipments, units';

/** SQL adding the daily rows of the CTE `rows` to their months (a rebuild). */
const toMonths = (rows: string) => `
    INSERT INTO analytics.shipped_units_monthly AS m (account_number, month, warehouse_code, sku, shipments, units)
    SELECT account_number, date_trunc('month', ship_day)::date, warehouse_code, sku,
           sum(shipments), sum(units)
      FROM ${rows} GROUP BY 1, 2, 3, 4
    ON CONFLICT (account_number, month, warehouse_code, sku) DO UPDATE
      SET shipments = m.shipments + excluded.shipments, units = m.units + excluded.units`;

const TOUCHED = `SELECT DISTINCT q.key[1] AS account_number, q.key[2]::date AS ship_day FROM ${QUEUED} WHERE ${IN_BATCH}`;

async function apply(db: Queryable, batch: Batch | null): Promise<void> {
  if (!batch) return;
  const params = [batch.relation, batch.maxId];
  // Only the daily rows that differ are written, and the month moves by their difference.
  await db.query(
    `WITH touched AS MATERIALIZED (${TOUCHED}),
     fresh AS MATERIALIZED (${daysOf('SELECT account_number, ship_day FROM touched')}),
     stale AS MATERIALIZED (
       SELECT d.* FROM analytics.shipped_units_daily d
         JOIN touched t ON t.account_number = d.account_number AND t.ship_day = d.ship_day),
     diff AS MATERIALIZED (
       SELECT coalesce(n.account_number, o.account_number) AS account_number,
              coalesce(n.ship_day, o.ship_day) AS ship_day,
              coalesce(n.warehouse_code, o.warehouse_code) AS warehouse_code, coalesce(n.sku, o.sku) AS sku,
              n.shipments, n.units, n.account_number IS NULL AS gone,
              coalesce(n.shipments, 0) - coalesce(o.shipments, 0) AS more_shipments,
              coalesce(n.units, 0) - coalesce(o.units, 0) AS more_units
         FROM fresh n FULL JOIN stale o
           ON o.account_number = n.account_number AND o.ship_day = n.ship_day
          AND o.warehouse_code = n.warehouse_code AND o.sku = n.sku
        WHERE (n.shipments, n.units) IS DISTINCT FROM (o.shipments, o.units)),
     written AS (
       INSERT INTO analytics.shipped_units_daily (${COLUMNS})
       SELECT ${COLUMNS} FROM diff WHERE NOT gone
       ON CONFLICT (account_number, ship_day, warehouse_code, sku) DO UPDATE
         SET shipments = excluded.shipments, units = excluded.units),
     removed AS (
       DELETE FROM analytics.shipped_units_daily d USING diff x
        WHERE x.gone AND d.account_number = x.account_number AND d.ship_day = x.ship_day
          AND d.warehouse_code = x.warehouse_code AND d.sku = x.sku)
     INSERT INTO analytics.shipped_units_monthly AS m (account_number, month, warehouse_code, sku, shipments, units)
     SELECT account_number, date_trunc('month', ship_day)::date, warehouse_code, sku, sum(more_shipments), sum(more_units)
       FROM diff GROUP BY 1, 2, 3, 4
     ON CONFLICT (account_number, month, warehouse_code, sku) DO UPDATE
       SET shipments = m.shipments + excluded.shipments, units = m.units + excluded.units`,
    params,
  );
  // A month none of whose days shipped that SKU any more: no row, as a rebuild would leave it.
  await db.query(
    `DELETE FROM analytics.shipped_units_monthly m
      USING (SELECT DISTINCT account_number, date_trunc('month', ship_day)::date AS month FROM (${TOUCHED}) t) t
      WHERE m.account_number = t.account_number AND m.month = t.month AND m.shipments = 0`,
    params,
  );
}

async function rebuild(db: Queryable): Promise<void> {
  await db.query('DELETE FROM analytics.shipped_units_daily');
  await db.query('DELETE FROM analytics.shipped_units_monthly');
  await db.query(
    `INSERT INTO analytics.shipped_units_daily (${COLUMNS}) ${daysOf(
      `SELECT DISTINCT account_number, ship_day FROM analytics.shipment_facts
        WHERE ship_day IS NOT NULL AND account_number IS NOT NULL`,
    )}`,
  );
  await db.query(`WITH days AS (SELECT * FROM analytics.shipped_units_daily) ${toMonths('days')}`);
}

export const shippedUnitsModel: AnalyticsModel = { relation: RELATION, apply, rebuild };
