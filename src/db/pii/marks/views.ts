import type { DirectMarks } from './types.ts';

/**
 * The views of schema `fulfillment` (src/db/schema/views.ts) a reader role reads as they are:
 * they read the tables with their owner's rights and expose only columns marked safe there.
 */
export const FULFILLMENT_VIEW_MARKS: Readonly<Record<string, DirectMarks>> = {
  'fulfillment.shipment_status': {
    safe: `container_id account_number order_number status_code status_description ship_date carrier_name
           tracking_number tracking_number_url last_scan_at last_scan_description last_scan_city
           last_scan_state_or_province order_status_code order_status_name customer_name warehouse_code
           warehouse_name order_created_at requested_ship_date synced_at`,
  },
  'fulfillment.open_returns': {
    safe: `ship_return_id account_number order_number customer_name processing_status_code processing_status_name
           return_reason_code return_reason_name ship_from_warehouse_code carrier_code tracking_number ship_date
           return_date age_days line_count quantity_returned quantity_damaged quantity_missing synced_at`,
  },
  'fulfillment.inventory_current': {
    safe: `supplier_id warehouse_code warehouse_name sub_inventory_code sub_inventory_name sku description
           provider_sku qty_on_hand qty_on_orders qty_on_ins qty_available_to_sell qty_available_to_promise
           last_changed_at is_out_of_stock out_of_stock_since stock_outs_30d vanished_at synced_at`,
  },
  'fulfillment.invoice_balances': {
    safe: `invoice_number account_number customer_name invoice_type invoice_date order_count total_invoice_amount
           payments_received balance_due is_open age_days aging_bucket synced_at`,
  },
  'fulfillment.shipments_per_day': {
    safe: 'ship_day warehouse_code warehouse_name account_number shipments units delivered exceptions returned',
  },
  'fulfillment.sync_health': {
    safe: `stream scope last_success_at lag_seconds cursor_position_at last_run_at last_run_status last_error
           last_error_at is_failing runs_24h failed_runs_24h rows_24h rejected_24h events_24h api_calls_24h`,
  },
};
