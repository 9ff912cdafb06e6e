import type { Queryable } from '../../db/queryable.ts';
import { type AnalyticsModel, type Batch, IN_BATCH, QUEUED } from './model.ts';

/**
 * analytics.stock_out_spells: runs of versions of an inventory row whose available-to-sell is 0 or
 * less. Queued keys are `{supplier, warehouse, sub-inventory, sku}` with the instant a version
 * begun, closed or changed there. A change recomputes its row's spells from an anchor: the start
 * of the spell the version before it belongs to, else the change itself (spells before the anchor
 * cannot change); a null anchor recomputes the row's every spell.
 */

const RELATION = 'analytics.stock_out_spells';
const KEY = ['supplier_id', 'warehouse_code', 'sub_inventory_code', 'sku'] as const;
const sameRow = (a: string, b: string) => KEY.map((c) => `${a}.${c} = ${b}.${c}`).join(' AND ');
const keyOf = (a: string) => KEY.map((c) => `${a}.${c}`).join(', ');
const IS_OUT = (a: string) => `coalesce(${a}.qty_available_to_sell <= 0, false)`;

type Anchor = {
  supplier_id: string;
  warehouse_code: string;
  sub_inventory_code: string;
  sku: string;
  /** timestamptz as text (full precision), or null: every spell of the row. */
  anchor: string | null;
};

const ANCHORS = `
    WITH queued AS (
      SELECT q.key[1] AS supplier_id, q.key[2] AS warehouse_code, q.key[3] AS sub_inventory_code, q.key[4] AS sku,
             CASE WHEN bool_or(q.from_at IS NULL) THEN NULL ELSE min(q.from_at) END AS from_at
        FROM ${QUEUED} WHERE ${IN_BATCH} GROUP BY 1, 2, 3, 4)
    SELECT ${keyOf('q')},
           (CASE WHEN q.from_at IS NULL THEN NULL
                 WHEN p.is_out THEN (SELECT max(s.started_at) FROM analytics.stock_out_spells s
                                      WHERE ${sameRow('s', 'q')} AND s.started_at <= p.valid_from)
                 ELSE q.from_at END)::text AS anchor
      FROM queued q
      LEFT JOIN LATERAL (
        SELECT x.valid_from, ${IS_OUT('x')} AS is_out FROM fulfillment.inventory_history x
         WHERE ${sameRow('x', 'q')} AND x.valid_from < q.from_at
         ORDER BY x.valid_from DESC LIMIT 1) p ON true`;

const JSON_ANCHORS = `SELECT * FROM jsonb_to_recordset($1::jsonb)
    AS e (supplier_id text, warehouse_code text, sub_inventory_code text, sku text, anchor timestamptz)`;
const EVERY_ROW = `SELECT DISTINCT ${KEY.join(', ')}, NULL::timestamptz AS anchor FROM fulfillment.inventory_history`;

/**
 * The spells of the rows of `scope` starting at or after their anchors: the versions from the one
 * before the anchor (not out: the anchor starts a spell or follows no spell), run-grouped as the
 * out_of_stock event rule reads them. The first version of a row has no predecessor: a spell
 * starting there was out when first seen.
 */
const spellsOf = (scope: string) => `
    WITH e AS MATERIALIZED (${scope}),
    v AS (
      SELECT ${keyOf('e')}, e.anchor, h.valid_from, h.valid_to, ${IS_OUT('h')} AS is_out,
             lag(${IS_OUT('h')}) OVER w AS was_out
        FROM e CROSS JOIN LATERAL (
          (SELECT x.valid_from, x.valid_to, x.qty_available_to_sell FROM fulfillment.inventory_history x
            WHERE ${sameRow('x', 'e')} AND e.anchor IS NOT NULL AND x.valid_from < e.anchor
            ORDER BY x.valid_from DESC LIMIT 1)
          UNION ALL
          (SELECT x.valid_from, x.valid_to, x.qty_available_to_sell FROM fulfillment.inventory_history x
            WHERE ${sameRow('x', 'e')} AND x.valid_from >= coalesce(e.anchor, '-infinity'))) h
      WINDOW w AS (PARTITION BY ${keyOf('e')} ORDER BY h.valid_from)),
    runs AS (
      SELECT *, count(*) FILTER (WHERE was_out IS DISTINCT FROM is_out)
                  OVER (PARTITION BY ${KEY.join(', ')} ORDER BY valid_from) AS run
        FROM v),
    spells AS (
      SELECT ${KEY.join(', ')}, anchor, min(valid_from) AS started_at,
             (array_agg(valid_to ORDER BY valid_from DESC))[1] AS ended_at,
             bool_or(was_out IS NULL) AS out_when_first_seen
        FROM runs WHERE is_out
       GROUP BY ${KEY.join(', ')}, anchor, run)
    SELECT ${KEY.join(', ')}, started_at, ended_at, ended_at IS NULL AS is_ongoing,
           round((extract(epoch FROM ended_at - started_at) / 3600)::numeric, 2) AS duration_hours,
           out_when_first_seen
      FROM spells WHERE anchor IS NULL OR started_at >= anchor`;

async function apply(db: Queryable, batch: Batch | null): Promise<void> {
  if (!batch) return;
  const { rows } = await db.query<Anchor>(ANCHORS, [batch.relation, batch.maxId]);
  if (rows.length === 0) return;
  const json = JSON.stringify(rows);
  await db.query(
    `DELETE FROM analytics.stock_out_spells s USING (${JSON_ANCHORS}) e
      WHERE ${sameRow('s', 'e')} AND s.started_at >= coalesce(e.anchor, '-infinity')`,
    [json],
  );
  await db.query(`INSERT INTO analytics.stock_out_spells ${spellsOf(JSON_ANCHORS)}`, [json]);
}

async function rebuild(db: Queryable): Promise<void> {
  await db.query('DELETE FROM analytics.stock_out_spells');
  await db.query(`INSERT INTO analytics.stock_out_spells ${spellsOf(EVERY_ROW)}`);
}

export const stockOutSpellsModel: AnalyticsModel = { relation: RELATION, apply, rebuild };
