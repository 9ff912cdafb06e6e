import type { TableText } from './tables.ts';

const MATERIALIZED =
  'Materialized: refreshed after the syncs that change its sources (at most every few minutes), so it can lag the tables by that much.';
const PACIFIC_DAY = (of: string) => `Calendar day of ${of} in America/Los_Angeles (the API's zone).`;
const KEY_OR_EMPTY = (what: string) => `${what}; '' groups the rows without one.`;

/**
 * Comments of the `analytics` relations (src/db/schema/analytics/), keyed `schema.relation`: what
 * each answers, an example query, and every column. docs/analytics.md is the guide over them.
 */
export const ANALYTICS_RELATIONS: Readonly<Record<string, TableText>> = {
  'analytics.shipment_facts': {
    text: `One row per shipment (container_id) with its scans, transit time, exception and return flags and its order's warehouse, service level, SLA and ship-to region. Answers: which shipments are late, slow or in trouble, per carrier, warehouse or account? Example: SELECT carrier_name, count(*) FILTER (WHERE delivered_after_sla) AS late, avg(transit_days) FROM analytics.shipment_facts WHERE ship_day >= current_date - 28 GROUP BY 1. No consumer name, email, phone or street line. ${MATERIALIZED}`,
    columns: {
      container_id: 'Shipment (container) id; one row each.',
      account_number: 'Account the shipment was synced for.',
      order_number: 'Order the shipment fulfils.',
      warehouse_code:
        "Warehouse of the shipment's order (order detail); null until the order detail is synced.",
      warehouse_name: 'Warehouse name (order detail).',
      carrier_name: 'Carrier name on the shipment.',
      tracking_number: 'Carrier tracking number.',
      status_code: 'Current shipment status: DELIVERED, EXCEPTION, IN_TRANSIT, RETURNED, SHIPPED.',
      requested_service_level: 'Service level the order requested (order detail).',
      planned_service_level: 'Service level planned for the order (order detail).',
      sla_status_code: 'SLA status code of the order (order detail), as the API gives it.',
      sla_status_name: 'SLA status name of the order (order detail).',
      sla_date:
        'SLA date of the order (order detail); null without one. The spec does not say whether it bounds shipping or delivery: both comparisons are given.',
      order_created_at:
        'When the order was created (order creation_date); null until the order detail is synced.',
      ship_date: 'When the shipment shipped (shipment header).',
      ship_day: PACIFIC_DAY('ship_date'),
      first_scan_at:
        'Time of the earliest tracking scan (fulfillment.shipment_events); null before the first scan.',
      last_scan_at: 'Time of the latest tracking scan; null before the first scan.',
      delivered_at:
        'When it was delivered: the latest scan of a shipment now DELIVERED (its status follows its latest scan); null while not delivered.',
      transit_days: 'Days from ship_date to delivered_at (2 decimals); null while not delivered.',
      is_delivered: 'Whether the status is DELIVERED.',
      is_exception: 'Whether the status is EXCEPTION now.',
      had_exception:
        'Whether it ever had an exception: status EXCEPTION or RETURNED now, or a scan whose description mentions an exception or a refusal (the scans carry no status).',
      is_returned_to_sender: 'Whether the status is RETURNED (back to the sender).',
      has_return: 'Whether a return (fulfillment.returns) names its order.',
      shipped_after_sla: 'Whether ship_date is after sla_date; null without either.',
      delivered_after_sla:
        'Whether delivered_at is after sla_date; null while not delivered or without sla_date.',
      units: 'Sum of its shipment line quantities (0 without lines).',
      ship_to_city: "City of the order's first ship-to address (no street line, no name).",
      ship_to_state_code: "State code of the order's first ship-to address.",
      ship_to_postal_code: "Postal code of the order's first ship-to address.",
      ship_to_country_code: "Country code of the order's first ship-to address.",
    },
  },
  'analytics.carrier_performance_weekly': {
    text: `Carrier performance per week of ship day (Monday-started Pacific weeks), over every account: shipments, delivered, exceptions, transit-time average, median and 90th percentile, SLA misses. Answers: is a carrier getting slower or less reliable? Example: SELECT week_start, carrier_name, median_transit_days, exception_rate FROM analytics.carrier_performance_weekly WHERE week_start >= current_date - 84 ORDER BY 1, 2. One row per week_start and carrier_name. ${MATERIALIZED}`,
    columns: {
      week_start: 'Monday of the Pacific week of the ship day.',
      carrier_name: KEY_OR_EMPTY('Carrier name'),
      shipments: 'Shipments shipped that week by that carrier.',
      units: 'Units in them.',
      delivered: 'Of these, how many are delivered now.',
      had_exception: 'Of these, how many had an exception (see shipment_facts.had_exception).',
      returned_to_sender: 'Of these, how many are RETURNED to the sender.',
      avg_transit_days: 'Average transit_days of the delivered ones (2 decimals).',
      median_transit_days: 'Median transit_days of the delivered ones.',
      p90_transit_days: '90th percentile of transit_days of the delivered ones.',
      with_sla_date: 'Of these, how many have an SLA date (order detail synced and giving one).',
      delivered_after_sla: 'Of these, how many were delivered after their SLA date.',
      exception_rate: 'had_exception / shipments (4 decimals).',
    },
  },
  'analytics.order_lifecycle': {
    text: `One row per synced order (account_number, order_number): received, shipped and delivered times and the durations between, with warehouse, order type, service level and holds. The API has no order list: an order is here once a shipment or return names it. Answers: how long do orders take from receipt to shipping and to the door, per warehouse? Example: SELECT warehouse_code, percentile_cont(0.5) WITHIN GROUP (ORDER BY hours_to_ship) FROM analytics.order_lifecycle WHERE received_at >= now() - interval '30 days' GROUP BY 1. ${MATERIALIZED}`,
    columns: {
      account_number: 'Account of the order.',
      order_number: 'Order number.',
      warehouse_code: 'Warehouse fulfilling the order.',
      warehouse_name: 'Warehouse name.',
      order_type_code: 'Order type code (order detail).',
      requested_service_level: 'Service level the order requested.',
      order_status_code: 'Order status as last synced.',
      received_at: 'When the order was received (received_date, else creation_date).',
      shipped_at: 'When its first shipment shipped (else the order shipped_date); null while unshipped.',
      delivered_at: 'When its last shipment was delivered, once all its shipments are; null before.',
      shipments: 'Its shipments (analytics.shipment_facts).',
      holds: 'Holds it carried (fulfillment.order_holds).',
      hours_to_ship: 'Hours from received_at to shipped_at (2 decimals).',
      days_in_transit: 'Days from shipped_at to delivered_at (2 decimals).',
      days_to_deliver: 'Days from received_at to delivered_at (2 decimals).',
    },
  },
  'analytics.return_rate_by_sku': {
    text: `Return rate per account and SKU since the first synced record: units returned (return lines) over units shipped (shipment lines). Answers: which wines come back most? Example: SELECT sku, units_shipped, units_returned, return_rate FROM analytics.return_rate_by_sku WHERE units_shipped >= 50 ORDER BY return_rate DESC LIMIT 10. One row per account_number and sku. ${MATERIALIZED}`,
    columns: {
      account_number: 'Account the shipments and returns were synced for.',
      sku: KEY_OR_EMPTY('SKU'),
      shipments: 'Shipments with a line of this SKU.',
      units_shipped: 'Units of this SKU shipped (sum of shipment line quantities).',
      returns: 'Returns with a line of this SKU.',
      units_returned: 'Units of this SKU returned (sum of quantity_returned).',
      units_damaged: 'Of the returned units, how many came back damaged (sum of quantity_damaged).',
      return_rate: 'units_returned / units_shipped (4 decimals); null when nothing shipped.',
    },
  },
  'analytics.return_rate_by_reason': {
    text: `Returns per account and return reason since the first synced record, with the units returned against all units the account shipped. Answers: why do orders come back? Example: SELECT return_reason_name, returns, units_returned, share_of_returned_units FROM analytics.return_rate_by_reason ORDER BY units_returned DESC. One row per account_number and return_reason_code. ${MATERIALIZED}`,
    columns: {
      account_number: 'Account the returns were synced for.',
      return_reason_code: KEY_OR_EMPTY('Return reason code'),
      return_reason_name: 'Return reason name.',
      returns: 'Returns giving this reason.',
      units_returned: 'Units returned with this reason.',
      units_damaged: 'Of these, units damaged.',
      units_shipped: "All units the account shipped (every SKU): the rate's denominator.",
      return_rate: 'units_returned / units_shipped (4 decimals).',
      share_of_returned_units: "This reason's share of the account's returned units (4 decimals).",
    },
  },
  'analytics.return_rate_by_warehouse': {
    text: `Return rate per account and warehouse since the first synced record: units returned to (ship-from) the warehouse over units shipped from it (warehouse from the order detail). Answers: does one warehouse see more returns? Example: SELECT warehouse_code, units_shipped, units_returned, return_rate FROM analytics.return_rate_by_warehouse ORDER BY return_rate DESC. One row per account_number and warehouse_code. ${MATERIALIZED}`,
    columns: {
      account_number: 'Account the shipments and returns were synced for.',
      warehouse_code: KEY_OR_EMPTY(
        'Warehouse (order detail for shipments, ship_from_warehouse_code for returns)',
      ),
      units_shipped: 'Units shipped from the warehouse.',
      returns: 'Returns shipped from the warehouse.',
      units_returned: 'Units returned.',
      units_damaged: 'Of these, units damaged.',
      return_rate: 'units_returned / units_shipped (4 decimals); null when nothing shipped.',
    },
  },
  'analytics.daily_inventory': {
    text: `On-hand stock per Pacific day, supplier, warehouse, sub-inventory and SKU at the end of the day, reaching back over the history the first load read. Days observed by the worker come from fulfillment.inventory_history; days before a row was first observed are reconstructed from fulfillment.inventory_activity (beginning and ending on-hand per day) and marked is_reconstructed. Answers: how did stock of a wine develop over the last months, per warehouse? Example: SELECT day, warehouse_code, sum(qty_on_hand) FROM analytics.daily_inventory WHERE sku = '1W003' AND day >= current_date - 90 GROUP BY 1, 2 ORDER BY 1, 2. One row per day and key. ${MATERIALIZED}`,
    columns: {
      day: 'Pacific calendar day; the quantities are those at its end (or now, for today).',
      supplier_id: 'Supplier the inventory belongs to.',
      warehouse_code: 'Warehouse code.',
      sub_inventory_code: 'Sub-inventory code (FG finished goods, QA, DMG, ...).',
      sku: 'SKU.',
      qty_on_hand: 'Units on hand at the end of the day.',
      qty_available_to_sell:
        'Units available to sell at the end of the day; null on reconstructed days (the activity report has no such figure).',
      is_reconstructed:
        'Whether the day is before the worker first saw the row, so reconstructed from inventory activity rather than observed.',
    },
  },
  'analytics.stock_out_spells': {
    text: `Stock-out spells per supplier, warehouse, sub-inventory and SKU from fulfillment.inventory_history: from qty_available_to_sell falling to 0 or less after being above 0, until it is above 0 again. A row first seen at 0 starts no spell (when it ran out is unknown). Answers: what ran out, when and for how long? Example: SELECT sku, warehouse_code, count(*), sum(coalesce(ended_at, now()) - started_at) FROM analytics.stock_out_spells WHERE started_at >= now() - interval '90 days' GROUP BY 1, 2. One row per key and started_at. ${MATERIALIZED}`,
    columns: {
      supplier_id: 'Supplier the inventory belongs to.',
      warehouse_code: 'Warehouse code.',
      sub_inventory_code: 'Sub-inventory code.',
      sku: 'SKU.',
      started_at:
        'When qty_available_to_sell was first seen at 0 or less after being above 0 (detection time).',
      ended_at: 'When it was first seen above 0 again; null while the spell lasts.',
      is_ongoing: 'Whether the spell still lasts (at the last refresh).',
      duration_hours:
        'Hours from started_at to ended_at (2 decimals); null while ongoing (use coalesce(ended_at, now())).',
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
