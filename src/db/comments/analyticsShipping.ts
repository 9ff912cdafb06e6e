import { KEPT, KEY_OR_EMPTY, NOTHING_PERSONAL, PACIFIC_DAY } from './analyticsPhrases.ts';
import type { TableText } from './tables.ts';

const SHIPPED = (grain: string) => ({
  account_number: 'Account the shipments were synced for.',
  warehouse_code: KEY_OR_EMPTY("Warehouse of the shipments' orders (order detail)"),
  sku: KEY_OR_EMPTY('SKU of the shipment lines'),
  shipments: `Shipments (containers) with a line of this SKU that ${grain}.`,
  units: `Units of this SKU shipped that ${grain} (sum of shipment line quantities).`,
});

/** Comments of the shipping relations of schema analytics. */
export const ANALYTICS_SHIPPING_RELATIONS: Readonly<Record<string, TableText>> = {
  'analytics.shipment_facts': {
    text: `One row per shipment (container_id) with its scans, transit time, exception and return flags and its order's warehouse, service level, SLA and ship-to region. Answers: which shipments are slow or in trouble, per carrier, warehouse or account, and which orders shipped after their SLA date? Example: SELECT carrier_name, avg(transit_days), count(*) FILTER (WHERE had_exception) FROM analytics.shipment_facts WHERE ship_day >= current_date - 28 GROUP BY 1. ${NOTHING_PERSONAL} ${KEPT}`,
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
      sla_status_code:
        "The order's SLA status as the API gives it (order detail): the warehouse's shipping promise (ON_TIME while open, MET or MISSED once shipped in the sandbox).",
      sla_status_name: 'SLA status name of the order (order detail).',
      sla_date:
        'SLA date of the order (order detail): the time by which the warehouse promises to ship it (a fulfillment SLA, not a delivery date); null without one.',
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
      shipped_after_sla:
        "Whether it shipped after its order's SLA date: the SLA miss (it agrees with sla_status_code MISSED); null without either date.",
      units: 'Sum of its shipment line quantities (0 without lines).',
      ship_to_city: "City of the order's first ship-to address (no street line, no name).",
      ship_to_state_code: "State code of the order's first ship-to address.",
      ship_to_postal_code: "Postal code of the order's first ship-to address.",
      ship_to_country_code: "Country code of the order's first ship-to address.",
    },
  },
  'analytics.carrier_performance_weekly': {
    text: `Carrier performance per week of ship day (Monday-started Pacific weeks), over every account: shipments, delivered, exceptions, transit-time average, median and 90th percentile. Answers: is a carrier getting slower or less reliable? Example: SELECT week_start, carrier_name, median_transit_days, exception_rate FROM analytics.carrier_performance_weekly WHERE week_start >= current_date - 84 ORDER BY 1, 2. One row per week_start and carrier_name. ${KEPT} A week whose shipments changed is recomputed whole.`,
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
      exception_rate: 'had_exception / shipments (4 decimals).',
    },
  },
  'analytics.order_lifecycle': {
    text: `One row per synced order (account_number, order_number): received, shipped and delivered times and the durations between, with warehouse, order type, service level and holds. The API has no order list: an order is here once a shipment or return names it. Answers: how long do orders take from receipt to shipping and to the door, per warehouse? Example: SELECT warehouse_code, percentile_cont(0.5) WITHIN GROUP (ORDER BY hours_to_ship) FROM analytics.order_lifecycle WHERE received_at >= now() - interval '30 days' GROUP BY 1. ${KEPT}`,
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
  'analytics.shipped_units_daily': {
    text: `Units shipped per account, warehouse, SKU and Pacific ship day, from the shipment lines of the shipments in analytics.shipment_facts (a shipment without a ship date is not counted). Answers: how much of a wine ships each day, from where? Example: SELECT ship_day, sum(units) FROM analytics.shipped_units_daily WHERE sku = '1W003' AND ship_day >= current_date - 28 GROUP BY 1 ORDER BY 1. One row per account_number, ship_day, warehouse_code and sku. ${KEPT}`,
    columns: { ...SHIPPED('day'), ship_day: PACIFIC_DAY('the ship date') },
  },
  'analytics.shipped_units_monthly': {
    text: `Units shipped per account, warehouse, SKU and Pacific month: analytics.shipped_units_daily summed per month (the return rates divide by it). Answers: how much shipped each month? Example: SELECT month, sum(units) FROM analytics.shipped_units_monthly GROUP BY 1 ORDER BY 1. One row per account_number, month, warehouse_code and sku. Kept with analytics.shipped_units_daily, in the same refresh.`,
    columns: { ...SHIPPED('month'), month: 'First day of the Pacific month of the ship date.' },
  },
};
