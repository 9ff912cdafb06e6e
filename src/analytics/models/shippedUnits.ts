import type { Queryable } from '../../db/queryable.ts';
import { type AnalyticsModel, type Batch, IN_BATCH, QUEUED } from './model.ts';

/**
 * analytics.shipped_units_daily, and with it analytics.shipped_units_monthly: units and shipments
 * per account, warehouse, SKU and Pacific ship day (month), from the facts' shipment lines.
 * Queued keys are `{account, ship_day}`: a fact of that account and day changed. The day is
 * recomputed; the month follows by the difference (what the day lost, then what it gained), in
 * the same transaction, so it never reads a year of lines.
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

/** SQL adding `sign` times the daily rows of the CTE `rows` to their months. */
const toMonths = (rows: string, sign: 1 | -1) => `
    INSERT INTO analytics.shipped_units_monthly AS m (account_number, month, warehouse_code, sku, shipments, units)
    SELECT account_number, date_trunc('month', ship_day)::date, warehouse_code, sku,
           ${sign} * sum(shipments), ${sign} * sum(units)
      FROM ${rows} GROUP BY 1, 2, 3, 4
    ON CONFLICT (account_number, month, warehouse_code, sku) DO UPDATE
      SET shipments = m.shipments + excluded.shipments, units = m.units + excluded.units`;

const TOUCHED = `SELECT DISTINCT q.key[1] AS account_number, q.key[2]::date AS ship_day FROM ${QUEUED} WHERE ${IN_BATCH}`;

async function apply(db: Queryable, batch: Batch | null): Promise<void> {
  if (!batch) return;
  const params = [batch.relation, batch.maxId];
  await db.query(
    `WITH gone AS (DELETE FROM analytics.shipped_units_daily d USING (${TOUCHED}) t
                    WHERE d.account_number = t.account_number AND d.ship_day = t.ship_day
                   RETURNING d.*)
     ${toMonths('gone', -1)}`,
    params,
  );
  await db.query(
    `WITH added AS (INSERT INTO analytics.shipped_units_daily (${COLUMNS}) ${daysOf(TOUCHED)} RETURNING *)
     ${toMonths('added', 1)}`,
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
  await db.query(`WITH days AS (SELECT * FROM analytics.shipped_units_daily) ${toMonths('days', 1)}`);
}

export const shippedUnitsModel: AnalyticsModel = { relation: RELATION, apply, rebuild };
