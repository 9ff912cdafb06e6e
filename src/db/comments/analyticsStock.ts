import { KEPT } from './analyticsPhrases.ts';
import type { TableText } from './tables.ts';

const ROW_KEY = {
  supplier_id: 'Supplier the inventory belongs to.',
  warehouse_code: 'Warehouse code.',
  sub_inventory_code: 'Sub-inventory code (FG finished goods, QA, DMG, ...).',
  sku: 'SKU.',
};

/** Comments of the stock, product, inbound and freshness relations of schema analytics. */
export const ANALYTICS_STOCK_RELATIONS: Readonly<Record<string, TableText>> = {
  'analytics.daily_inventory': {
    text: `On-hand stock per Pacific day, supplier, warehouse, sub-inventory and SKU at the end of the day, reaching back over the history the first load read. Days observed by the worker come from fulfillment.inventory_history; days before a row was first observed are reconstructed from fulfillment.inventory_activity (beginning and ending on-hand per day) and marked is_reconstructed. Answers: how did stock of a wine develop over the last months, per warehouse? Example: SELECT day, warehouse_code, sum(qty_on_hand) FROM analytics.daily_inventory WHERE sku = '1W003' AND day >= current_date - 90 GROUP BY 1, 2 ORDER BY 1, 2. One row per day and key. ${KEPT} A change recomputes its row from the day it matters; each new day extends the rows still open.`,
    columns: {
      day: 'Pacific calendar day; the quantities are those at its end (or now, for today).',
      ...ROW_KEY,
      qty_on_hand: 'Units on hand at the end of the day.',
      qty_available_to_sell:
        'Units available to sell at the end of the day; null on reconstructed days (the activity report has no such figure).',
      is_reconstructed:
        'Whether the day is before the worker first saw the row, so reconstructed from inventory activity rather than observed.',
    },
  },
  'analytics.stock_out_spells': {
    text: `Stock-out spells per supplier, warehouse, sub-inventory and SKU from fulfillment.inventory_history: a run of versions with qty_available_to_sell at 0 or less, from the first of them until the next version above 0. A row already at 0 when the worker first saw it starts a spell there (out_when_first_seen: it ran out before, when is unknown). Sub-inventories never available to sell (QA, damaged) are out from their first observation on. Answers: what ran out, when and for how long? Example: SELECT sku, warehouse_code, count(*), sum(coalesce(ended_at, now()) - started_at) FROM analytics.stock_out_spells WHERE started_at >= now() - interval '90 days' AND NOT out_when_first_seen GROUP BY 1, 2. One row per key and started_at. ${KEPT}`,
    columns: {
      ...ROW_KEY,
      sub_inventory_code: 'Sub-inventory code.',
      started_at:
        'When qty_available_to_sell was seen at 0 or less after being above 0 (detection time), or the first observation of a row already out.',
      ended_at: 'When it was first seen above 0 again; null while the spell lasts.',
      is_ongoing: 'Whether the spell still lasts (at the last refresh).',
      duration_hours:
        'Hours from started_at to ended_at (2 decimals); null while ongoing (use coalesce(ended_at, now())).',
      out_when_first_seen:
        'Whether the row was already out when the worker first saw it: it ran out earlier, so started_at is when it was first seen, not when it ran out.',
    },
  },
  'analytics.days_of_cover': {
    text: "Stock now and how many days it lasts, per supplier, warehouse and SKU (summed over sub-inventories): on hand and available to sell from fulfillment.inventory (the current state; a row the owned listing no longer names is left out), against the units shipped per day over the last 28 complete Pacific days (fewer right after the install: as far back as the inventory activity goes), from the warehouse's own activity report (fulfillment.inventory_activity qty_shipped). Answers: how many days of stock are left, and what is out of stock now? Example: SELECT warehouse_code, sku, qty_on_hand, days_of_cover FROM analytics.days_of_cover WHERE days_of_cover < 14 ORDER BY days_of_cover. One row per supplier_id, warehouse_code and sku. A plain view: as of the last inventory sync.",
    columns: {
      supplier_id: 'Supplier the inventory belongs to.',
      warehouse_code: 'Warehouse code.',
      sku: 'SKU.',
      qty_on_hand: 'Units on hand now, over its sub-inventories (finished goods, QA, damaged, ...).',
      qty_available_to_sell: 'Units available to sell now, over its sub-inventories.',
      is_out_of_stock: 'Whether nothing is available to sell now (qty_available_to_sell 0 or less).',
      days_measured:
        "Complete Pacific days the shipping rate is measured over: 28, or fewer when the supplier's inventory activity starts later.",
      units_shipped: 'Units shipped over those days (inventory activity qty_shipped).',
      avg_daily_units_shipped: 'units_shipped / days_measured (2 decimals); null without a day measured.',
      days_of_cover:
        'qty_on_hand / avg_daily_units_shipped: days the stock lasts at that rate (1 decimal); null when nothing shipped.',
    },
  },
  'analytics.products': {
    text: 'The product dimension: one row per supplier and SKU with its description and wine attributes (brand, varietal, vintage, appellation, bottle size, price) from fulfillment.products; a SKU only the inventory names has its description from there. Join it to any relation by sku (and supplier_id). Answers: what is SKU 1W003? Example: SELECT d.sku, p.description, d.days_of_cover FROM analytics.days_of_cover d JOIN analytics.products p USING (supplier_id, sku). One row per supplier_id and sku. A plain view: as of the last product sync.',
    columns: {
      supplier_id: 'Supplier owning the product.',
      sku: 'SKU.',
      description: 'Product description (product listing, else the inventory rows).',
      has_product_record: 'Whether fulfillment.products holds it (else only the inventory names it).',
    },
  },
  'analytics.freshness': {
    text: "How fresh each relation of schema analytics is, for readers (schema sync stays closed to them). Answers: data as of when? Example: SELECT 'data as of ' || to_char(source_data_as_of AT TIME ZONE 'America/Los_Angeles', 'YYYY-MM-DD HH24:MI') FROM analytics.freshness WHERE relation = 'analytics.shipment_facts'. One row per relation.",
    columns: {
      relation: 'The analytics relation, as schema.name.',
      refreshed_as_of:
        'Every change the worker stored before this instant is in the relation (for a plain view over synced tables: now).',
      source_data_as_of:
        'The upstream time its data is complete up to: the least of how far the streams it reads have synced (every scope) and of the kept tables it reads; null while one of them has never synced.',
      lag_seconds: 'Seconds from source_data_as_of to now (at query time).',
    },
  },
  'analytics.open_transfers_in': {
    text: 'View: inbound transfers (INs) still open (DRAFT, SUBMITTED or PROCESSING) with their age, expected date and what is still to arrive. Answers: which INs are waiting, for how long, and are any overdue? Example: SELECT order_number, warehouse_code, status_code, age_days, qty_outstanding FROM analytics.open_transfers_in WHERE is_overdue ORDER BY age_days DESC. One row per supplier_id and order_number.',
    columns: {
      supplier_id: 'Supplier of the IN.',
      order_number: 'Order number of the IN.',
      reference_number: 'Reference number of the IN.',
      warehouse_code: 'Receiving warehouse.',
      warehouse_name: 'Receiving warehouse name.',
      status_code: 'IN status: DRAFT, SUBMITTED or PROCESSING.',
      status_name: 'IN status name.',
      created_at: 'When the IN was created (from its detail; null until fetched).',
      submitted_date: 'When the IN was submitted; null for a draft.',
      expected_date: 'When the goods are expected.',
      age_days: 'Whole days since submitted_date (else created_at), at query time.',
      is_overdue: 'Whether expected_date has passed (at query time); null without one.',
      line_count: 'Its line items (fulfillment.transfer_in_lines; 0 until the detail is fetched).',
      qty_ordered: 'Units ordered over its lines; null without lines.',
      qty_received: 'Units received so far over its lines; null without lines.',
      qty_outstanding: 'Units still to arrive (ordered minus received, not below 0); null without lines.',
    },
  },
};
