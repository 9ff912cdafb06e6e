/**
 * The SQL of analytics.daily_inventory (src/analytics/models/dailyInventory.ts says when it runs):
 * the rows of the inventory rows of a scope `e` (supplier_id, warehouse_code, sub_inventory_code,
 * sku, from_day), for the days from `from_day` on (every day where it is null). A rebuild is the
 * same query over every row with a null from_day, so a refresh and a rebuild cannot disagree.
 */

const LA = `'America/Los_Angeles'`;
const KEY = ['supplier_id', 'warehouse_code', 'sub_inventory_code', 'sku'] as const;
/** `a.supplier_id = b.supplier_id AND ...` */
export const sameRow = (a: string, b: string) => KEY.map((c) => `${a}.${c} = ${b}.${c}`).join(' AND ');
const keyOf = (a: string) => KEY.map((c) => `${a}.${c}`).join(', ');

/** A scope passed as JSON ($1): rows of `{supplier_id, warehouse_code, sub_inventory_code, sku, from_day}`. */
export const JSON_SCOPE = `SELECT * FROM jsonb_to_recordset($1::jsonb)
    AS e (supplier_id text, warehouse_code text, sub_inventory_code text, sku text, from_day date)`;

/** Every inventory row the synced tables know, every day. */
export const WHOLE_SCOPE = `SELECT k.*, NULL::date AS from_day FROM (
      SELECT DISTINCT ${KEY.join(', ')} FROM fulfillment.inventory_history
      UNION SELECT DISTINCT ${KEY.join(', ')} FROM fulfillment.inventory_activity) k`;

/** First instant of the Pacific day after `day`. */
const endOf = (day: string) => `((${day} + 1)::timestamp AT TIME ZONE ${LA})`;

/** The rows of scope `scope` from its from_days on, as INSERT INTO analytics.daily_inventory takes them. */
export const rowsOf = (scope: string) => `
    WITH e AS MATERIALIZED (${scope}),
    today AS (SELECT (now() AT TIME ZONE ${LA})::date AS day),
    -- The versions open at the end of from_day or later: the last one begun by then, and those after
    -- (bounds the primary key's index takes: an OR would read every version of the row).
    versions AS (
      SELECT ${keyOf('e')}, e.from_day, h.valid_from, h.valid_to, h.qty_on_hand, h.qty_available_to_sell
        FROM e CROSS JOIN LATERAL (
          (SELECT x.valid_from, x.valid_to, x.qty_on_hand, x.qty_available_to_sell
             FROM fulfillment.inventory_history x
            WHERE ${sameRow('x', 'e')} AND e.from_day IS NOT NULL AND x.valid_from < ${endOf('e.from_day')}
            ORDER BY x.valid_from DESC LIMIT 1)
          UNION ALL
          (SELECT x.valid_from, x.valid_to, x.qty_on_hand, x.qty_available_to_sell
             FROM fulfillment.inventory_history x
            WHERE ${sameRow('x', 'e')} AND x.valid_from >= coalesce(${endOf('e.from_day')}, '-infinity'))) h),
    observed AS (
      SELECT b.first_day + d.i AS day, ${keyOf('v')}, v.qty_on_hand, v.qty_available_to_sell, false AS is_reconstructed
        FROM versions v
       CROSS JOIN LATERAL (
         SELECT (v.valid_from AT TIME ZONE ${LA})::date AS first_day,
                coalesce((v.valid_to AT TIME ZONE ${LA})::date - 1, (SELECT day FROM today)) AS last_day) b
       CROSS JOIN LATERAL generate_series(greatest(coalesce(v.from_day - b.first_day, 0), 0),
                                          b.last_day - b.first_day) d (i)),
    -- Rows with days before their first observation in scope: reconstructed from the activity.
    unobserved AS (
      SELECT ${keyOf('e')}, e.from_day, f.day AS first_observed, f.qty_on_hand AS first_qty, c.first_day AS coverage
        FROM e
        LEFT JOIN LATERAL (
          SELECT (x.valid_from AT TIME ZONE ${LA})::date AS day, x.qty_on_hand
            FROM fulfillment.inventory_history x WHERE ${sameRow('x', 'e')}
           ORDER BY x.valid_from LIMIT 1) f ON true
        LEFT JOIN LATERAL (
          SELECT min(a.activity_date) AS first_day FROM fulfillment.inventory_activity a
           WHERE a.supplier_id = e.supplier_id) c ON true
       WHERE f.day IS NULL OR e.from_day IS NULL OR e.from_day < f.day),
    activity AS (
      SELECT ${keyOf('u')}, a.activity_date, a.beginning_on_hand, a.ending_on_hand,
             lead(a.activity_date) OVER w AS next_day, row_number() OVER w AS n
        FROM unobserved u JOIN fulfillment.inventory_activity a ON ${sameRow('a', 'u')}
      WINDOW w AS (PARTITION BY ${keyOf('u')} ORDER BY a.activity_date)),
    spans AS (
      SELECT ${keyOf('a')}, a.activity_date AS from_day, coalesce(a.next_day - 1, (SELECT day FROM today)) AS to_day,
             a.ending_on_hand AS qty_on_hand
        FROM activity a
      UNION ALL
      -- Before its first activity, a row held that activity's beginning on-hand.
      SELECT ${keyOf('a')}, u.coverage, a.activity_date - 1, a.beginning_on_hand
        FROM activity a JOIN unobserved u ON ${sameRow('u', 'a')}
       WHERE a.n = 1 AND a.activity_date > u.coverage
      UNION ALL
      -- Without any activity, it held what it was first observed with.
      SELECT ${keyOf('u')}, u.coverage, u.first_observed - 1, u.first_qty
        FROM unobserved u
       WHERE u.first_observed IS NOT NULL AND u.coverage IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM activity a WHERE ${sameRow('a', 'u')})),
    reconstructed AS (
      SELECT s.from_day + d.i AS day, ${keyOf('s')}, s.qty_on_hand, NULL::integer AS qty_available_to_sell,
             true AS is_reconstructed
        FROM spans s JOIN unobserved u ON ${sameRow('u', 's')}
       CROSS JOIN LATERAL generate_series(greatest(coalesce(u.from_day - s.from_day, 0), 0),
                                          least(s.to_day, coalesce(u.first_observed - 1, s.to_day)) - s.from_day) d (i))
    SELECT * FROM observed UNION ALL SELECT * FROM reconstructed`;

/** Deletes the rows of scope $1 (JSON) from their from_days on (a bound the index takes, not an OR). */
export const DELETE_SCOPE = `DELETE FROM analytics.daily_inventory d USING (${JSON_SCOPE}) e
  WHERE ${sameRow('d', 'e')} AND d.day >= coalesce(e.from_day, '-infinity')`;
