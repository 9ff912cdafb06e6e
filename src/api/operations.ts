/**
 * The 17 operations of the fulfillment API (spec section 4), each with whether it is idempotent
 * (`OperationSpec.idempotent`). The id is `<METHOD> <path after /api/v1/>`, the same key
 * FULFILLMENT_QUERY_PARAMS uses for query-parameter overrides and that metrics report.
 */
const IDEMPOTENT = {
  'POST Products/Skus/Wine': false,
  'GET Products/{supplierId}/{sku}': true,
  'GET Products/Owned/Listing': true,
  'POST Transfers/INs': false,
  'GET Transfers/INs': true,
  'GET Transfers/INs/{supplierId}/{orderNumber}': true,
  'DELETE Transfers/INs': true,
  // A search with no body: POST on the wire, but a read.
  'POST Transfers/OUTs/Search': true,
  'GET Inventories/Owned': true,
  'GET Inventories/Activity': true,
  'GET Orders/Detail/{accountNumber}/{orderNumber}': true,
  'DELETE Orders/{accountNumber}/{orderNumber}': true,
  'POST Orders/PackingSlips/Bulk': true,
  'GET Shipments/Updates': true,
  'GET Shipments/Returns': true,
  'GET Shipments/Carriers/HoldAtLocations': true,
  'GET Finances/invoices': true,
} as const;

/** The spec of operation `Id`: its method and path read from the id itself, so they cannot disagree. */
type SpecOf<Id extends OperationId> = Id extends `${infer M extends OperationSpec['method']} ${infer P}`
  ? { readonly method: M; readonly path: P; readonly idempotent: (typeof IDEMPOTENT)[Id] }
  : never;

/** Method, path and idempotence of every operation, by id. */
export const OPERATIONS = Object.fromEntries(
  Object.entries(IDEMPOTENT).map(([id, idempotent]) => {
    const space = id.indexOf(' ');
    return [id, { method: id.slice(0, space), path: id.slice(space + 1), idempotent }];
  }),
) as { readonly [Id in OperationId]: SpecOf<Id> };

export interface OperationSpec {
  method: 'GET' | 'POST' | 'DELETE';
  /** Path after `/api/v1/`; `{name}` placeholders are filled with URL-encoded path parameters. */
  path: string;
  /**
   * False for creates: a timeout or dropped connection may hide a request the service applied, so the
   * transport only repeats them when the service clearly refused the call (408, 429, 503).
   */
  idempotent: boolean;
}

export type OperationId = keyof typeof IDEMPOTENT;

/** Fills `{name}` placeholders with encoded values; a missing value is a programming error. */
export function buildPath(template: string, params: Readonly<Record<string, string>> = {}): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`path parameter ${name} is missing for ${template}`);
    return encodeURIComponent(value);
  });
}
