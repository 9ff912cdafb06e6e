import type { OperationId } from './operations.ts';

/**
 * The one table of query-string names (docs/upstream-api.md, section 4). The spec lists parameters only by
 * meaning; these camelCase names are our defaults and any of them can be renamed through
 * `FULFILLMENT_QUERY_PARAMS` (`Config.api.queryParams`).
 */
export const DEFAULT_QUERY_PARAMS = {
  'GET Products/Owned/Listing': names('supplierId', 'itemTypeCode', 'sku'),
  'GET Transfers/INs': names(
    'supplierId',
    'warehouseCode',
    'sku',
    'statusCode',
    'deliveryMethodCode',
    'beginDate',
    'endDate',
  ),
  'DELETE Transfers/INs': names('supplierId', 'orderNumber'),
  'POST Transfers/OUTs/Search': names('supplierId', 'warehouseCode', 'sku', 'beginDate', 'endDate'),
  'GET Inventories/Owned': names('supplierId', 'warehouseCode', 'subInventoryCode', 'sku', 'onHandOnly'),
  'GET Inventories/Activity': names(
    'supplierId',
    'warehouseCode',
    'subInventoryCode',
    'beginDate',
    'endDate',
    'sku',
    'activeOnly',
  ),
  'GET Shipments/Updates': names('accountNumber', 'beginDate', 'endDate', 'containerId'),
  'GET Shipments/Returns': names(
    'accountNumber',
    'warehouseCode',
    'beginDate',
    'endDate',
    'returnReasonCode',
    'statusCode',
    'orderNumber',
    'trackingNumber',
  ),
  'GET Shipments/Carriers/HoldAtLocations': names(
    'carrier',
    'address1',
    'address2',
    'address3',
    'city',
    'stateCode',
    'postalCode',
    'countryCode',
  ),
  'GET Finances/invoices': names('accountNumber', 'invoiceType', 'invoiceNumber', 'beginDate', 'endDate'),
  'DELETE Orders/{accountNumber}/{orderNumber}': names('renameOrder'),
} as const satisfies Partial<Record<OperationId, Record<string, string>>>;

function names<const T extends string>(...meanings: T[]): { readonly [K in T]: K } {
  return Object.fromEntries(meanings.map((m) => [m, m])) as { [K in T]: K };
}

/** Operations that take query parameters. */
export type QueryOperation = keyof typeof DEFAULT_QUERY_PARAMS;
/** The meanings of one operation's query parameters. */
export type QueryMeaning<Op extends QueryOperation> = keyof (typeof DEFAULT_QUERY_PARAMS)[Op];
/** Effective names: operation -> meaning -> wire name. */
export type QueryParamTable = { readonly [Op in QueryOperation]: Readonly<Record<QueryMeaning<Op>, string>> };

/** A FULFILLMENT_QUERY_PARAMS override that names an unknown operation or meaning, or a bad name. */
export class QueryParamOverrideError extends Error {
  readonly problems: readonly string[];
  /** `setting` names where the overrides came from: the queryParams option, or the environment variable. */
  constructor(problems: readonly string[], setting = 'FULFILLMENT_QUERY_PARAMS') {
    super(`${setting} is invalid: ${problems.join('; ')}`);
    this.name = 'QueryParamOverrideError';
    this.problems = problems;
  }
}

/** Merges overrides over the defaults; throws QueryParamOverrideError naming every problem. */
export function resolveQueryParams(
  overrides: Readonly<Record<string, Readonly<Record<string, string>>>> = {},
  setting?: string,
): QueryParamTable {
  const problems: string[] = [];
  const table: Record<string, Record<string, string>> = {};
  for (const [op, defaults] of Object.entries(DEFAULT_QUERY_PARAMS)) table[op] = { ...defaults };

  for (const [op, renames] of Object.entries(overrides)) {
    const current = table[op];
    if (!current) {
      problems.push(`unknown operation "${op}" (known: ${Object.keys(DEFAULT_QUERY_PARAMS).join(', ')})`);
      continue;
    }
    for (const [meaning, name] of Object.entries(renames)) {
      if (!(meaning in current)) {
        problems.push(`"${op}" has no parameter "${meaning}" (known: ${Object.keys(current).join(', ')})`);
      } else if (typeof name !== 'string' || name.trim() === '') {
        problems.push(`"${op}" parameter "${meaning}" must be renamed to a non-empty string`);
      } else {
        current[meaning] = name;
      }
    }
    const wireNames = Object.values(current);
    const duplicates = wireNames.filter((n, i) => wireNames.indexOf(n) !== i);
    if (duplicates.length > 0) {
      problems.push(`"${op}" would send two parameters named ${[...new Set(duplicates)].join(', ')}`);
    }
  }
  if (problems.length > 0) throw new QueryParamOverrideError(problems, setting);
  return table as QueryParamTable;
}

/** A query value before encoding; undefined values are left out of the URL. */
export type QueryValue = string | number | boolean | undefined;

/** Turns `{meaning: value}` into wire `[name, value]` pairs using the effective table. */
export function toQueryPairs<Op extends QueryOperation>(
  table: QueryParamTable,
  operation: Op,
  values: Partial<Record<QueryMeaning<Op>, QueryValue>>,
): [string, string][] {
  const namesByMeaning = table[operation] as Readonly<Record<string, string>>;
  const pairs: [string, string][] = [];
  for (const [meaning, value] of Object.entries(values as Record<string, QueryValue>)) {
    if (value === undefined) continue;
    const name = namesByMeaning[meaning];
    if (name === undefined) throw new Error(`${operation} has no query parameter "${meaning}"`);
    pairs.push([name, String(value)]);
  }
  return pairs;
}
