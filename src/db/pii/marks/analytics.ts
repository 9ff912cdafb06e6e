import type { DirectMarks } from './types.ts';

/**
 * The relations of schema `analytics` a reader role reads, with the columns it may read. A relation
 * or column added to analytics stays invisible to the reader until it is listed here (and
 * `migrate` with FULFILLMENT_READER_ROLE, or `grant-reader`, runs): add one line per relation,
 * `'analytics.<name>': { safe: '<its columns>' }`, listing only columns that hold nothing personal
 * (codes, quantities, dates, SKUs, regions; never a name, e-mail, phone, street line or free text).
 * A column that must stay unreadable goes in `closed`. docs/warehouse.md, "Marking what a reader reads".
 */
export const ANALYTICS_MARKS: Readonly<Record<string, DirectMarks>> = {
  'analytics.shipment_facts': {
    safe: `container_id account_number order_number warehouse_code warehouse_name carrier_name tracking_number
           status_code requested_service_level planned_service_level sla_status_code sla_status_name sla_date
           order_created_at ship_date ship_day first_scan_at last_scan_at delivered_at transit_days is_delivered
           is_exception had_exception is_returned_to_sender has_return shipped_after_sla units
           ship_to_city ship_to_state_code ship_to_postal_code ship_to_country_code`,
  },
  'analytics.carrier_performance_weekly': {
    safe: `week_start carrier_name shipments units delivered had_exception returned_to_sender avg_transit_days
           median_transit_days p90_transit_days exception_rate`,
  },
  'analytics.order_lifecycle': {
    safe: `account_number order_number warehouse_code warehouse_name order_type_code requested_service_level
           order_status_code received_at shipped_at delivered_at shipments holds hours_to_ship days_in_transit
           days_to_deliver`,
  },
  'analytics.return_rate_by_sku': {
    safe: 'account_number sku shipments units_shipped returns units_returned units_damaged return_rate',
  },
  'analytics.return_rate_by_reason': {
    safe: `account_number return_reason_code return_reason_name returns units_returned units_damaged units_shipped
           return_rate share_of_returned_units`,
  },
  'analytics.return_rate_by_warehouse': {
    safe: 'account_number warehouse_code units_shipped returns units_returned units_damaged return_rate',
  },
  'analytics.daily_inventory': {
    safe: 'day supplier_id warehouse_code sub_inventory_code sku qty_on_hand qty_available_to_sell is_reconstructed',
  },
  'analytics.stock_out_spells': {
    safe: `supplier_id warehouse_code sub_inventory_code sku started_at ended_at is_ongoing duration_hours
           out_when_first_seen`,
  },
  'analytics.open_transfers_in': {
    safe: `supplier_id order_number reference_number warehouse_code warehouse_name status_code status_name
           created_at submitted_date expected_date age_days is_overdue line_count qty_ordered qty_received
           qty_outstanding`,
  },
  'analytics.shipped_units_daily': { safe: 'account_number warehouse_code sku shipments units ship_day' },
  'analytics.shipped_units_monthly': { safe: 'account_number warehouse_code sku shipments units month' },
  'analytics.return_rate_monthly': {
    safe: 'account_number month units_shipped returns units_returned units_damaged return_rate',
  },
  'analytics.days_of_cover': {
    safe: `supplier_id warehouse_code sku qty_on_hand qty_available_to_sell is_out_of_stock days_measured
           units_shipped avg_daily_units_shipped days_of_cover`,
  },
  // Product attributes from the listing and detail: a winery's catalogue, nothing about a consumer.
  'analytics.products': {
    safe: `supplier_id sku description brand_name fanciful_name varietal vintage appellation region_of_origin
           country_of_origin_code alcohol_type_code alcohol_percentage bottle_size_ml units_per_case item_type_code
           retail_price deactivation_status has_product_record`,
  },
  // Names of relations and timestamps only (it reads sync tables with its owner's rights).
  'analytics.freshness': { safe: 'relation refreshed_as_of source_data_as_of lag_seconds' },
};
