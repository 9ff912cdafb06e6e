import type { TableMarks } from './types.ts';

/**
 * Every column of every table of schema `fulfillment`, marked for the reader role, which reads
 * each table through its view in `fulfillment_masked` (generated from these marks):
 * - `safe`: read as stored, unless the value looks like an e-mail, phone or street line (then
 *   hashed); a key column of the table is read as stored (its indexes stay usable) and checked by
 *   `grant-reader` and `pii-audit` instead.
 * - `value`: personal (names, e-mails, phones, street lines, free text a person wrote, who did
 *   something): read as a keyed hash.
 * - `json`: JSON as received: members the spec names as non-personal are read as above, every
 *   other member, at any depth, as a keyed hash.
 * - `derived`: computed without a key from personal data (hashes of a record or of a free text):
 *   read as a keyed hash.
 * - `closed`: not in the masking view at all.
 * A column not listed is closed too (a test names it). Customer, supplier, seller and account
 * names are the businesses this warehouse serves, not consumers: safe. City, state, postal code and
 * country are kept (regions for analysis). Carrier scan descriptions are carrier status texts: safe.
 */
export const FULFILLMENT_TABLE_MARKS: Readonly<Record<string, TableMarks>> = {
  'fulfillment.shipments': {
    safe: `container_id account_number order_number ship_date carrier_name tracking_number tracking_number_url
           status_code status_description synced_at`,
    json: 'raw',
    derived: 'content_hash',
  },
  'fulfillment.shipment_lines': { safe: 'container_id line_number sku quantity synced_at', json: 'raw' },
  'fulfillment.shipment_events': {
    safe: 'container_id event_key event_time city state_or_province description synced_at',
    json: 'raw',
  },
  'fulfillment.returns': {
    safe: `ship_return_id account_number shipment_key customer_name provider_order_number order_number
           order_type_code order_type_name ship_from_warehouse_code consumer_city consumer_state consumer_zip_code
           wms_carrier_code carrier_code tracking_number tracking_number_url tracking_status_url return_reason_code
           return_reason_name processing_status_code processing_status_name resolution_code resolution_name
           ship_date return_date has_personalizations synced_at`,
    value: `consumer_first_name consumer_last_name consumer_address1 consumer_address2 notification_email_address
            notification_phone_number vas_order_personalizations`,
    json: 'raw',
    derived: 'content_hash',
  },
  'fulfillment.return_lines': {
    safe: `ship_return_id line_number component_number shipment_key sku sku_description provider_sku
           quantity_ordered quantity_shipped quantity_returned quantity_damaged quantity_missing synced_at`,
    value: 'vas_order_personalizations',
    json: 'raw',
  },
  'fulfillment.inventory': {
    safe: `supplier_id warehouse_code sub_inventory_code sku warehouse_name description provider_sku
           sub_inventory_name qty_on_hand qty_on_orders qty_on_ins qty_available_to_sell qty_available_to_promise
           vanished_at synced_at`,
    json: 'raw',
    derived: 'content_hash',
  },
  'fulfillment.inventory_history': {
    safe: `supplier_id warehouse_code sub_inventory_code sku valid_from valid_to qty_on_hand qty_on_orders
           qty_on_ins qty_available_to_sell qty_available_to_promise run_id`,
  },
  'fulfillment.inventory_activity': {
    safe: `supplier_id activity_date warehouse_code sub_inventory_code sku account_number warehouse_name
           sub_inventory_name description provider_sku sku_type beginning_on_hand ending_on_hand qty_received
           qty_transferred_in qty_transferred_out qty_moved_in qty_moved_out qty_shipped qty_adjusted qty_damaged
           qty_returned qty_kitted qty_other synced_at`,
    json: 'raw',
    derived: 'content_hash',
  },
  'fulfillment.transfers_in': {
    safe: `supplier_id order_number row_id supplier_name warehouse_code warehouse_name reference_number
           submitted_date status_code status_name is_cancellable is_editable delivery_method_code
           delivery_method_name pickup_site_id pickup_site_code pickup_site_city pickup_site_state_code
           pickup_site_postal_code pickup_site_country_code expected_date creation_date last_update_date closed_date
           notification_status_code notification_status_name detail_fetched_at synced_at`,
    value: `pickup_site_line1 pickup_site_line2 pickup_site_phone pickup_site_fax created_by last_updated_by
            notification_status_message`,
    json: 'raw detail_raw',
    derived: 'content_hash',
  },
  'fulfillment.transfer_in_lines': {
    safe: `supplier_id order_number line_number header_row_id inventory_item_id provider_sku sku sku_description
           qty_ordered qty_received sub_inventory_code sub_inventory_name creation_date last_update_date synced_at`,
    value: 'created_by last_updated_by',
    json: 'raw',
  },
  'fulfillment.transfer_in_notes': {
    safe: 'supplier_id order_number type_code note_timestamp creation_date last_update_date synced_at',
    value: 'note_text created_by last_updated_by',
    json: 'raw',
    derived: 'note_key',
  },
  'fulfillment.transfers_out': {
    safe: `supplier_id order_number supplier_name warehouse_code warehouse_name reference_number ordered_date
           requested_priority request_date status_code status is_editable synced_at`,
    value: 'created_by',
    json: 'raw',
    derived: 'content_hash',
  },
  'fulfillment.invoices': {
    safe: `invoice_number account_number customer_name invoice_type order_count invoice_date
           class_invoice_amount total_invoice_amount payments_received balance_due synced_at`,
    json: 'raw',
    derived: 'content_hash',
  },
  'fulfillment.products': {
    safe: `supplier_id sku account_number description provider_sku supplier_name account_name item_type_code
           item_type_name pack_slip_description is_owner upc_code brand_name fanciful_name appellation varietal
           vintage alcohol_type_code alcohol_percentage bottle_size_ml units_per_case vineyard_designation
           ttb_approval_number country_of_origin_code country_of_origin_name region_of_origin weight
           units_of_measure is_available_for_sourcing additional_attributes is_bid_stickered retail_price
           deactivation_status vas_code vas_name orientation location detail_fetched_at synced_at`,
    json: 'raw detail_raw',
    derived: 'content_hash',
  },
  'fulfillment.product_selling_infos': {
    safe: `supplier_id sku seller_account_number seller_name provider_sku record_sku description retail_price
           supplier_name supplier_payment synced_at`,
    json: 'raw',
  },
  'fulfillment.product_pto_components': {
    safe: `supplier_id sku component_number provider_sku record_sku description quantity retail_price weight
           units_of_measure item_type_code item_type_name synced_at`,
    json: 'raw',
  },
  'fulfillment.product_bom_inventories': {
    safe: `supplier_id sku warehouse_code sub_inventory_code warehouse_name provider_sku record_sku description
           items_per_gset gsets_onhand items_in_gsets gsets_reserved items_in_reserved_gsets gsets_available
           items_in_available_gsets synced_at`,
    json: 'raw',
  },
  'fulfillment.orders': {
    safe: `account_number order_number customer_name warehouse_code warehouse_name provider_order_number
           received_date creation_date customer_order_date requested_ship_date fulfillment_date shipped_date
           batch_number order_type_code order_type_name requested_service_level planned_service_level
           order_status_code order_status_name collapsed_status compliance_route fulfillment_route
           packing_slip_code packing_slip_name is_onsite_purchase is_line_haul is_editable is_cancellable
           is_back_ordered has_inventory_hold sla_status_code sla_status_name sla_date notification_template_code
           notification_template_name packaging_type_code packaging_type_name synced_at`,
    value: `notification_email notification_phone gift_message shipping_instructions vas_order_personalizations`,
    json: 'packages contents trackings notes billings account_payable_headers account_payable_lines raw',
    derived: 'content_hash',
  },
  'fulfillment.order_lines': {
    safe: `account_number order_number line_number component_number inventory_item_id sku description
           is_shippable quantity_ordered quantity_reserved quantity_shipped item_shortage uom unit_price
           sub_inventory_code sub_inventory_name is_bom_component synced_at`,
    value: 'vas_order_personalizations',
    json: 'raw',
  },
  'fulfillment.order_holds': {
    safe: `account_number order_number hold_status hold_name hold_description release_reason expiration_date
           release_date creation_date is_directly_releasable synced_at`,
    value: 'hold_comment release_comment',
    json: 'raw',
    derived: 'hold_key',
  },
  'fulfillment.order_messages': {
    safe: 'account_number order_number message_type message_time synced_at',
    value: 'message',
    json: 'raw',
    derived: 'message_key',
  },
  'fulfillment.order_addresses': {
    safe: `account_number order_number role position is_residential_address city state_code state_name
           postal_code country_code country_name delivery_status_code delivery_status_name
           delivery_address_type_code delivery_address_type_name synced_at`,
    value: 'first_name middle_name last_name company_name address1 address2 address3',
    json: 'raw',
  },
};
