/**
 * Descriptions of the columns fulfillment-sync adds (not spec fields), by column name. Per-table
 * texts in tables.ts win over these.
 */
export const OWN_COLUMN_TEXT: Readonly<Record<string, string>> = {
  synced_at: 'When fulfillment-sync last wrote this row (only when something in it changed).',
  raw: 'The record as received from the API, including members the spec does not detail.',
  content_hash:
    'Hash (SHA-1 of its JSON) of raw, kept by fulfillment-sync to recognise an unchanged record without re-reading it.',
  detail_raw:
    'The detail header as received from the detail call, including members the spec does not detail.',
  detail_fetched_at: 'When the detail call was last made for this row; null if never.',
  record_sku:
    "The element's own sku member (in product child tables the sku column is the parent product's SKU).",
  run_id: 'The sync.runs row that wrote this.',
  stream:
    'Stream name: products, inventory, inventory_activity, transfers_in, transfers_out, shipments, returns, invoices or orders.',
  scope: 'Stream scope: a supplier id or an account number.',
  created_at: 'When the row was created.',
  updated_at: 'When the row was last updated.',
  backfill_id: 'Identifier of the backfill (stream, scope and date range).',
  window_start: 'Start of the window read (inclusive).',
  window_end: 'End of the window read (inclusive, at minute or day granularity).',
  finished_at: 'When it finished.',
  fetched: 'Records fetched from the API.',
  inserted: 'Rows inserted.',
  updated: 'Rows updated (something in them changed).',
  unchanged: 'Records identical to what was stored (nothing written).',
  rejected: 'Records that failed their schema (see sync.rejected_records).',
  reason: 'Why.',
};
