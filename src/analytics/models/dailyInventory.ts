import type { Queryable } from '../../db/queryable.ts';
import { DELETE_SCOPE, JSON_SCOPE, rowsOf, sameRow, WHOLE_SCOPE } from './dailyInventorySql.ts';
import { type AnalyticsModel, type Batch, IN_BATCH, QUEUED } from './model.ts';

/**
 * analytics.daily_inventory: a row per inventory row and Pacific day. Queued keys are
 * `{supplier, warehouse, sub-inventory, sku, source}` with the instant the change starts to matter
 * (`history`: a version begun or closed then; `activity`: that day's activity). A change
 * recomputes its row from that day on; one reaching its first observation or first activity (so
 * the reconstruction before it) recomputes the whole row, and a supplier whose history read now
 * starts on another day recomputes all its rows. Each new Pacific day extends the rows still open.
 */

const RELATION = 'analytics.daily_inventory';
const LA = `'America/Los_Angeles'`;

type Scope = {
  supplier_id: string;
  warehouse_code: string;
  sub_inventory_code: string;
  sku: string;
  /** yyyy-mm-dd, or null: every day. */
  from_day: string | null;
};

/** Suppliers of the batch whose earliest activity moved: recorded anew, returned. */
const COVERAGE_MOVED = `
    WITH suppliers AS (SELECT DISTINCT q.key[1] AS supplier_id FROM ${QUEUED} WHERE ${IN_BATCH} AND q.key[5] = 'activity'),
    now_first AS (
      SELECT s.supplier_id, (SELECT min(a.activity_date) FROM fulfillment.inventory_activity a
                              WHERE a.supplier_id = s.supplier_id) AS first_day
        FROM suppliers s),
    moved AS (
      SELECT n.supplier_id, n.first_day FROM now_first n
        LEFT JOIN sync.analytics_inventory_coverage c ON c.supplier_id = n.supplier_id
       WHERE c.first_day IS DISTINCT FROM n.first_day),
    saved AS (
      INSERT INTO sync.analytics_inventory_coverage (supplier_id, first_day) SELECT supplier_id, first_day FROM moved
      ON CONFLICT (supplier_id) DO UPDATE SET first_day = excluded.first_day)
    SELECT supplier_id FROM moved`;

/** The rows and first days the batch touches ($3: suppliers whose rows are all recomputed). */
const SCOPE_OF_BATCH = `
    WITH queued AS (
      SELECT q.key[1] AS supplier_id, q.key[2] AS warehouse_code, q.key[3] AS sub_inventory_code, q.key[4] AS sku,
             q.key[5] AS source,
             CASE WHEN bool_or(q.from_at IS NULL) THEN NULL
                  ELSE min((q.from_at AT TIME ZONE ${LA})::date) END AS from_day
        FROM ${QUEUED} WHERE ${IN_BATCH} GROUP BY 1, 2, 3, 4, 5),
    judged AS (
      SELECT q.supplier_id, q.warehouse_code, q.sub_inventory_code, q.sku,
             CASE WHEN q.source = 'history' AND (f.day IS NULL OR q.from_day <= f.day) THEN NULL
                  WHEN q.source = 'activity' AND NOT EXISTS (
                    SELECT 1 FROM fulfillment.inventory_activity a
                     WHERE ${sameRow('a', 'q')} AND a.activity_date < q.from_day) THEN NULL
                  ELSE q.from_day END AS from_day
        FROM queued q
        LEFT JOIN LATERAL (
          SELECT (x.valid_from AT TIME ZONE ${LA})::date AS day FROM fulfillment.inventory_history x
           WHERE ${sameRow('x', 'q')} ORDER BY x.valid_from LIMIT 1) f ON true
      UNION ALL
      SELECT k.*, NULL FROM (
        SELECT supplier_id, warehouse_code, sub_inventory_code, sku FROM fulfillment.inventory_history
         WHERE supplier_id = ANY ($3::text[])
        UNION SELECT supplier_id, warehouse_code, sub_inventory_code, sku FROM fulfillment.inventory_activity
         WHERE supplier_id = ANY ($3::text[])
        UNION SELECT supplier_id, warehouse_code, sub_inventory_code, sku FROM analytics.daily_inventory
         WHERE supplier_id = ANY ($3::text[])) k)
    SELECT supplier_id, warehouse_code, sub_inventory_code, sku,
           (CASE WHEN bool_or(from_day IS NULL) THEN NULL ELSE min(from_day) END)::text AS from_day
      FROM judged GROUP BY 1, 2, 3, 4`;

/** Replaces the rows of `scope` from their first days on. */
async function recompute(db: Queryable, scope: readonly Scope[]): Promise<void> {
  if (scope.length === 0) return;
  const json = JSON.stringify(scope);
  await db.query(DELETE_SCOPE, [json]);
  await db.query(`INSERT INTO analytics.daily_inventory ${rowsOf(JSON_SCOPE)}`, [json]);
}

/** A new Pacific day: every row open on the last day computed goes on to today. */
async function extendToToday(db: Queryable): Promise<void> {
  const { rows } = await db.query<Scope>(
    `WITH last AS (SELECT max(day) AS day FROM analytics.daily_inventory)
     SELECT d.supplier_id, d.warehouse_code, d.sub_inventory_code, d.sku, (d.day + 1)::text AS from_day
       FROM analytics.daily_inventory d, last
      WHERE d.day = last.day AND last.day < (now() AT TIME ZONE ${LA})::date`,
  );
  await recompute(db, rows);
}

async function apply(db: Queryable, batch: Batch | null): Promise<void> {
  await extendToToday(db);
  if (!batch) return;
  const params = [batch.relation, batch.maxId];
  const moved = await db.query<{ supplier_id: string }>(COVERAGE_MOVED, params);
  const { rows } = await db.query<Scope>(SCOPE_OF_BATCH, [...params, moved.rows.map((r) => r.supplier_id)]);
  await recompute(db, rows);
}

async function rebuild(db: Queryable): Promise<void> {
  await db.query('DELETE FROM analytics.daily_inventory');
  await db.query(`INSERT INTO analytics.daily_inventory ${rowsOf(WHOLE_SCOPE)}`);
  await db.query('DELETE FROM sync.analytics_inventory_coverage');
  await db.query(
    `INSERT INTO sync.analytics_inventory_coverage (supplier_id, first_day)
     SELECT supplier_id, min(activity_date) FROM fulfillment.inventory_activity GROUP BY 1`,
  );
}

export const dailyInventoryModel: AnalyticsModel = { relation: RELATION, apply, rebuild };
