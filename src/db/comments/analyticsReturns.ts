import { FOLLOWS, KEY_OR_EMPTY } from './analyticsPhrases.ts';
import type { TableText } from './tables.ts';

const OVER_SHIPPED = FOLLOWS('analytics.shipped_units_monthly');
const RATE = 'units_returned / units_shipped (4 decimals); null when nothing shipped.';

/** Comments of the return-rate views of schema analytics. */
export const ANALYTICS_RETURN_RELATIONS: Readonly<Record<string, TableText>> = {
  'analytics.return_rate_by_sku': {
    text: `Return rate per account and SKU since the first synced record: units returned (return lines) over units shipped (shipment lines). Answers: which wines come back most? Example: SELECT sku, units_shipped, units_returned, return_rate FROM analytics.return_rate_by_sku WHERE units_shipped >= 50 ORDER BY return_rate DESC LIMIT 10. One row per account_number and sku. ${OVER_SHIPPED}`,
    columns: {
      account_number: 'Account the shipments and returns were synced for.',
      sku: KEY_OR_EMPTY('SKU'),
      shipments: 'Shipments with a line of this SKU.',
      units_shipped: 'Units of this SKU shipped (sum of shipment line quantities).',
      returns: 'Returns with a line of this SKU.',
      units_returned: 'Units of this SKU returned (sum of quantity_returned).',
      units_damaged: 'Of the returned units, how many came back damaged (sum of quantity_damaged).',
      return_rate: RATE,
    },
  },
  'analytics.return_rate_by_reason': {
    text: `Returns per account and return reason since the first synced record, with the units returned against all units the account shipped. Answers: why do orders come back? Example: SELECT return_reason_name, returns, units_returned, share_of_returned_units FROM analytics.return_rate_by_reason ORDER BY units_returned DESC. One row per account_number and return_reason_code. ${OVER_SHIPPED}`,
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
    text: `Return rate per account and warehouse since the first synced record: units returned to (ship-from) the warehouse over units shipped from it (warehouse from the order detail). Answers: does one warehouse see more returns? Example: SELECT warehouse_code, units_shipped, units_returned, return_rate FROM analytics.return_rate_by_warehouse ORDER BY return_rate DESC. One row per account_number and warehouse_code. ${OVER_SHIPPED}`,
    columns: {
      account_number: 'Account the shipments and returns were synced for.',
      warehouse_code: KEY_OR_EMPTY(
        'Warehouse (order detail for shipments, ship_from_warehouse_code for returns)',
      ),
      units_shipped: 'Units shipped from the warehouse.',
      returns: 'Returns shipped from the warehouse.',
      units_returned: 'Units returned.',
      units_damaged: 'Of these, units damaged.',
      return_rate: RATE,
    },
  },
  'analytics.return_rate_monthly': {
    text: `Return rate per account and Pacific month: units returned that month (by the return's return_date; a return without one is not counted) over units shipped that month. Answers: are returns rising or falling? Example: SELECT month, sum(units_returned)::numeric / nullif(sum(units_shipped), 0) FROM analytics.return_rate_monthly GROUP BY 1 ORDER BY 1. One row per account_number and month. ${OVER_SHIPPED}`,
    columns: {
      account_number: 'Account the shipments and returns were synced for.',
      month: 'First day of the Pacific month.',
      units_shipped: 'Units shipped that month (by ship date).',
      returns: 'Returns received that month (by return date).',
      units_returned: 'Units returned that month.',
      units_damaged: 'Of these, units damaged.',
      return_rate: RATE,
    },
  },
};
