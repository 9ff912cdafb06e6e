/** A table's comment and the texts of its columns that differ from the shared dictionaries. */
export interface TableText {
  text: string;
  columns?: Readonly<Record<string, string>>;
}

const SCOPE_ACCOUNT = 'Scope: the account number whose call returned it (the record does not carry it).';
const SCOPE_SUPPLIER = 'Scope: the supplier id whose call returned it (the record does not carry it).';
const HASH = (parts: string) =>
  `Natural key part: a hash of what ${parts} say (the record carries no id): a time as its instant, codes and names without case or extra spacing, texts without extra spacing, so the record sent again in another spelling keeps its key.`;
const PARENT_SKU = 'SKU of the parent product (key).';

/** Comments of the `fulfillment` tables (synced records), keyed `schema.table`. */
export const FULFILLMENT_TABLES: Readonly<Record<string, TableText>> = {
  'fulfillment.shipments': {
    text: 'Shipment update headers (spec 2.10, GET Shipments/Updates), one row per container. Key: container_id.',
    columns: {
      account_number: SCOPE_ACCOUNT,
      status_code: 'Shipment status: DELIVERED, EXCEPTION, IN_TRANSIT, RETURNED, SHIPPED.',
      raw: 'The shipment update as received (header, lineItems and events), including members the spec does not detail.',
    },
  },
  'fulfillment.shipment_lines': {
    text: 'Shipment line items (spec 2.10 lineItems[]). Key: container_id, line_number.',
  },
  'fulfillment.shipment_events': {
    text: "Shipment tracking events (spec 2.10 events[]), the shipment's progress. Key: container_id, event_key.",
    columns: { event_key: HASH('eventTime, city, stateOrProvince and description') },
  },
  'fulfillment.returns': {
    text: 'Order returns (spec 2.9, GET Shipments/Returns). Key: ship_return_id.',
    columns: { account_number: SCOPE_ACCOUNT },
  },
  'fulfillment.return_lines': {
    text: 'Return line items (spec 2.9 lineItems[]). Key: ship_return_id, line_number, component_number (null stored as 0).',
  },
  'fulfillment.inventory': {
    text: 'Current owned inventory (spec 2.8, GET Inventories/Owned). A row that vanishes from the snapshot is zeroed, not deleted. Key: supplier_id, warehouse_code, sub_inventory_code, sku.',
    columns: {
      supplier_id: SCOPE_SUPPLIER,
      vanished_at:
        'When the row vanished from the owned-inventory snapshot (quantities then zeroed); null while present.',
    },
  },
  'fulfillment.inventory_history': {
    text: 'Owned-inventory quantities over time (SCD type 2): each version is valid from valid_from until valid_to (null while current). Key: the inventory key + valid_from.',
    columns: {
      supplier_id: SCOPE_SUPPLIER,
      valid_from: 'Start of this version (inclusive).',
      valid_to: 'End of this version (exclusive); null for the current version.',
    },
  },
  'fulfillment.inventory_activity': {
    text: 'Daily inventory activity (spec 2.8, GET Inventories/Activity). Key: supplier_id, activity_date, warehouse_code, sub_inventory_code, sku.',
    columns: {
      activity_date: 'The day (in the API time zone) the activity covers: the one-day window of the call.',
    },
  },
  'fulfillment.transfers_in': {
    text: 'Inbound inventory transfers, INs (spec 2.6): list-row fields plus the header fields only the detail call returns. Statuses: PROCESSING, CANCELLED, CLOSED, DRAFT, SUBMITTED. Key: supplier_id, order_number.',
    columns: {
      status_code: 'IN status: PROCESSING, CANCELLED, CLOSED, DRAFT, SUBMITTED.',
      raw: 'The IN list row as received, including members the spec does not detail.',
      order_number: 'Order number of the IN (needed to cancel it).',
    },
  },
  'fulfillment.transfer_in_lines': {
    text: 'IN detail line items (spec 2.6 lineItems[]). Key: supplier_id, order_number, line_number.',
  },
  'fulfillment.transfer_in_notes': {
    text: 'IN detail notes (spec 2.6 notes[]). Key: supplier_id, order_number, note_key.',
    columns: { note_key: HASH('typeCode, noteTimestamp and noteText') },
  },
  'fulfillment.transfers_out': {
    text: 'Outbound inventory transfers, OUTs (spec 2.7, POST Transfers/OUTs/Search). Key: supplier_id, order_number.',
    columns: {
      supplier_id: 'Unique ID of the owner of items; the scope supplier when the row carries none.',
      status_code: 'OUT status code.',
      status: 'OUT status.',
    },
  },
  'fulfillment.invoices': {
    text: 'Invoices (spec 2.13, GET Finances/invoices). Key: invoice_number.',
  },
  'fulfillment.products': {
    text: 'Products a supplier owns: the owned-listing row (spec 2.5) merged with the product-detail header (spec 2.4); detail-only columns are null until the detail is fetched. Key: supplier_id, sku.',
    columns: { raw: 'The owned-listing row as received, including members the spec does not detail.' },
  },
  'fulfillment.product_selling_infos': {
    text: 'Product selling infos (spec 2.4 sellingInfos[]). Key: supplier_id, sku, seller_account_number.',
    columns: { sku: PARENT_SKU },
  },
  'fulfillment.product_pto_components': {
    text: 'Pick-to-order components of a product (spec 2.4 ptoInfos[]). Key: supplier_id, sku, component_number.',
    columns: {
      sku: PARENT_SKU,
      record_sku: 'SKU of the component.',
      component_number: 'Component number (integer).',
    },
  },
  'fulfillment.product_bom_inventories': {
    text: 'Gift-set (bill-of-materials) inventories of a product per warehouse (spec 2.4 bomInventories[]). Key: supplier_id, sku, warehouse_code, sub_inventory_code.',
    columns: { sku: PARENT_SKU },
  },
  'fulfillment.orders': {
    text: 'Order detail headers (spec 2.2 OrderDetailHeader, GET Orders/Detail), fetched for orders named by changed shipments and returns. Key: account_number, order_number.',
    columns: {
      raw: 'The order detail as received (header, lines, holds, messages, addresses and the rest), including members the spec does not detail.',
    },
  },
  'fulfillment.order_lines': {
    text: "Order line items (spec 2.2 OrderDetailLine). Key: account_number, order_number, line_number, component_number (null stored as '').",
  },
  'fulfillment.order_holds': {
    text: 'Order holds (spec 2.2 OrderDetailHold). Key: account_number, order_number, hold_key.',
    columns: { hold_key: HASH('holdName and creationDate') },
  },
  'fulfillment.order_messages': {
    text: 'Order messages (spec 2.2 OrderDetailMessage). Key: account_number, order_number, message_key.',
    columns: { message_key: HASH('messageTime, messageType and message') },
  },
  'fulfillment.order_addresses': {
    text: 'Consumer addresses of an order (spec 2.2 soldToConsumers, shipToConsumers, deliverToConsumers). Key: account_number, order_number, role, position.',
    columns: {
      role: "Which array the address came from: 'sold_to', 'ship_to' or 'deliver_to'.",
      position: '0-based index of the address in its array.',
    },
  },
};
