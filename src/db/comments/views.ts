import type { TableText } from './tables.ts';

const AGE = (from: string) =>
  `Whole days elapsed since ${from} (24-hour periods up to now(), at query time); null without ${from}.`;
const LAST_24H = (what: string) => `${what} of the runs started in the last 24 hours (0 when none).`;

/**
 * Comments of the `fulfillment` views (src/db/schema/views.ts), keyed `schema.view`. Columns
 * without a text here take the shared spec-field texts, like table columns.
 */
export const FULFILLMENT_VIEWS: Readonly<Record<string, TableText>> = {
  'fulfillment.shipment_status': {
    text: 'View: every shipment with its current status, its latest tracking scan and its order (from the order detail). One row per container_id.',
    columns: {
      account_number: 'Account the shipment was synced for.',
      status_code: 'Current shipment status: DELIVERED, EXCEPTION, IN_TRANSIT, RETURNED, SHIPPED.',
      last_scan_at:
        'Time of the latest tracking scan (fulfillment.shipment_events); null before the first scan.',
      last_scan_description: 'Description of the latest tracking scan.',
      last_scan_city: 'City of the latest tracking scan.',
      last_scan_state_or_province: 'State or province of the latest tracking scan.',
      order_status_code:
        "Status of the shipment's order (fulfillment.orders); null until the order detail is synced.",
      order_status_name: "Status name of the shipment's order.",
      customer_name: "Customer name on the shipment's order.",
      warehouse_code: 'Warehouse of the order that shipped it; null until the order detail is synced.',
      warehouse_name: 'Warehouse name of the order.',
      order_created_at: 'When the order was created (order creation_date).',
      synced_at: 'When fulfillment-sync last changed the shipment row.',
    },
  },
  'fulfillment.open_returns': {
    text: 'View: returns not yet resolved (processing_status_code other than RESOLVED, or none), with their age and returned quantities. One row per ship_return_id.',
    columns: {
      account_number: 'Account the return was synced for.',
      processing_status_code: 'Processing status: NEW or IN_PROCESS (RESOLVED returns are not listed).',
      age_days: AGE('return_date'),
      line_count: 'Number of return lines (fulfillment.return_lines).',
      quantity_returned: 'Sum of quantity_returned over the return lines; null without lines.',
      quantity_damaged: 'Sum of quantity_damaged over the return lines; null without lines.',
      quantity_missing: 'Sum of quantity_missing over the return lines; null without lines.',
      synced_at: 'When fulfillment-sync last changed the return row.',
    },
  },
  'fulfillment.inventory_current': {
    text: 'View: current owned inventory per supplier, warehouse, sub-inventory and SKU, with when its quantities last changed and its stock-outs (from fulfillment.inventory_history). A stock-out is qty_available_to_sell reaching 0 or less, as the inventory.out_of_stock event counts it.',
    columns: {
      supplier_id: 'Supplier the inventory belongs to (the scope of the snapshot).',
      last_changed_at:
        'When the quantities last changed: start of the current inventory_history version; null without history.',
      is_out_of_stock: 'Whether qty_available_to_sell is 0 or less; null when the API gave no quantity.',
      out_of_stock_since:
        'While out of stock: when the last version with stock ended (or, if it never had stock, when it was first seen); null while in stock.',
      stock_outs_30d:
        'How many times qty_available_to_sell dropped to 0 or less from above 0 in the last 30 days (a row first seen at 0 has not dropped: not counted).',
      vanished_at:
        'When the row vanished from the owned-inventory snapshot (quantities then zeroed); null while present.',
      synced_at: 'When fulfillment-sync last changed the inventory row.',
    },
  },
  'fulfillment.invoice_balances': {
    text: 'View: invoices with what is still owed, their age and an aging bucket. One row per invoice_number.',
    columns: {
      account_number: 'Account number of the invoice.',
      is_open: 'Whether a balance is still due (balance_due above 0).',
      age_days: AGE('invoice_date'),
      aging_bucket: "Age of an open invoice: '0-30', '31-60', '61-90' or '90+' days; null when not open.",
      synced_at: 'When fulfillment-sync last changed the invoice row.',
    },
  },
  'fulfillment.shipments_per_day': {
    text: "View: shipments per ship day (America/Los_Angeles, the API's zone), warehouse and account, with units and how many are now delivered, in exception or returned. One row per ship_day, warehouse_code, account_number.",
    columns: {
      ship_day: 'Calendar day of ship_date in America/Los_Angeles.',
      warehouse_code:
        'Warehouse of the shipped orders (from the order detail); null groups the shipments whose order detail is not synced yet.',
      warehouse_name: 'Warehouse name.',
      account_number: 'Account the shipments were synced for.',
      shipments: 'Number of shipments (containers).',
      units: 'Sum of the shipment line quantities.',
      delivered: 'Of these shipments, how many are DELIVERED now.',
      exceptions: 'Of these shipments, how many are in EXCEPTION now.',
      returned: 'Of these shipments, how many are RETURNED now.',
    },
  },
  'fulfillment.sync_health': {
    text: 'View: sync health per stream and scope (from schema sync, which readers cannot read directly): last success, lag, last error, and the runs, rows and rejected records of the last 24 hours. One row per stream and scope that has a cursor or a run.',
    columns: {
      last_success_at: 'When the last successful run of this stream and scope finished; null if none yet.',
      lag_seconds:
        'Seconds from last_success_at to now (at query time): how stale the data of this stream and scope may be; null if it never succeeded.',
      cursor_position_at:
        'Time-window streams: the end of the last window stored (sync.cursors.position_at); null for snapshot and detail streams.',
      last_run_at:
        'When the most recent run (any outcome) started; when it was an empty poll (nothing new found, no sync.runs row), when that poll was stored (sync.cursors.last_polled_at).',
      last_run_status:
        "Outcome of the most recent run: 'succeeded' (an empty poll too), 'partial' or 'failed'.",
      last_error: 'Error text of the most recent failed run; null if none ever failed.',
      last_error_at: 'When that failed run finished.',
      is_failing: 'Whether the most recent failed run is newer than the last success.',
      runs_24h:
        'Number of the runs started in the last 24 hours that wrote a run row (0 when none): an empty poll, which finds nothing new, writes none and is not counted.',
      failed_runs_24h: LAST_24H('Number of failed runs among those'),
      rows_24h: LAST_24H('Rows inserted plus rows updated'),
      rejected_24h: LAST_24H('Records rejected (see sync.rejected_records)'),
      events_24h: LAST_24H('Events derived'),
      api_calls_24h:
        'Upstream API calls of the runs started in the last 24 hours that wrote a run row (0 when none): the calls of empty polls are not counted (fulfillment_api_calls_total counts every call).',
    },
  },
};
